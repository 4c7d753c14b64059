// fast-check arbitraries that mutate real seeds (bytes or text), the way a mutation fuzzer does: flips, inserts,
// deletions, duplicated and truncated ranges, interesting values. Pure: the same seed and ops give the same input.
import fc from 'fast-check';

const interestingBytes = [0x00, 0x01, 0x7f, 0x80, 0xff, 0xfe, 0xd8, 0xd9, 0xda, 0xc2, 0xc4];

const byteOp = fc.oneof(
  fc.record({ kind: fc.constant('flip'), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({
    kind: fc.constant('set'),
    at: fc.nat(),
    value: fc.oneof(fc.constantFrom(...interestingBytes), fc.integer({ min: 0, max: 255 })),
  }),
  fc.record({ kind: fc.constant('insert'), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 16 }) }),
  fc.record({ kind: fc.constant('delete'), at: fc.nat(), length: fc.integer({ min: 1, max: 64 }) }),
  fc.record({
    kind: fc.constant('duplicate'),
    at: fc.nat(),
    length: fc.integer({ min: 1, max: 256 }),
    times: fc.integer({ min: 1, max: 64 }),
  }),
  fc.record({ kind: fc.constant('truncate'), at: fc.nat() }),
  fc.record({ kind: fc.constant('u16'), at: fc.nat(), value: fc.constantFrom(0, 1, 2, 0x7fff, 0x8000, 0xffff) }),
);

/** @param {...Uint8Array} parts */
const join = (...parts) => {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
};

/** @typedef {typeof byteOp extends import('fast-check').Arbitrary<infer Op> ? Op : never} ByteOp */

/**
 * Applies byte-level mutations to a copy of `seed` (typed-array slices: seeds are up to 128 KB).
 * @param {Uint8Array} seed
 * @param {ByteOp[]} ops
 */
export function mutateBytes(seed, ops) {
  let bytes = seed.slice();
  for (const op of ops) {
    const at = bytes.length === 0 ? 0 : op.at % (bytes.length + 1);
    switch (op.kind) {
      case 'flip':
        if (at < bytes.length) bytes[at] ^= 1 << op.bit;
        break;
      case 'set':
        if (at < bytes.length) bytes[at] = op.value;
        break;
      case 'insert':
        bytes = join(bytes.subarray(0, at), op.bytes, bytes.subarray(at));
        break;
      case 'delete':
        bytes = join(bytes.subarray(0, at), bytes.subarray(at + op.length));
        break;
      case 'duplicate': {
        const piece = bytes.subarray(at, at + op.length);
        const copies = Array.from({ length: op.times }, () => piece);
        bytes = join(bytes.subarray(0, at), ...copies, bytes.subarray(at));
        break;
      }
      case 'truncate':
        bytes = bytes.slice(0, at);
        break;
      case 'u16':
        if (at + 1 < bytes.length) {
          bytes[at] = op.value >> 8;
          bytes[at + 1] = op.value & 0xff;
        }
        break;
    }
  }
  return bytes;
}

/**
 * Inputs for a byte parser: mutated seeds most of the time, plus a known magic number followed by random bytes, plus
 * plain random bytes.
 * @param {Uint8Array[]} seeds
 * @param {number[][]} [magics]
 * @returns {import('fast-check').Arbitrary<Uint8Array>}
 */
export function bytesFrom(seeds, magics = []) {
  const mutated = fc
    .tuple(fc.constantFrom(...seeds), fc.array(byteOp, { minLength: 1, maxLength: 8 }))
    .map(([seed, ops]) => mutateBytes(seed, ops));
  const options = [
    { arbitrary: mutated, weight: 8 },
    { arbitrary: fc.uint8Array({ maxLength: 512 }), weight: 1 },
  ];
  if (magics.length > 0) {
    options.push({
      arbitrary: fc
        .tuple(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 2048 }))
        .map(([magic, tail]) => Uint8Array.from([...magic, ...tail])),
      weight: 2,
    });
  }
  return fc.oneof(...options);
}

/** @param {string[]} dictionary */
const textOp = (dictionary) =>
  fc.oneof(
    fc.record({
      kind: fc.constant('insert'),
      at: fc.nat(),
      text: fc.oneof(
        fc.constantFrom(...dictionary),
        fc.string({ maxLength: 8 }),
        fc.string({ unit: 'binary', maxLength: 4 }),
      ),
    }),
    fc.record({ kind: fc.constant('delete'), at: fc.nat(), length: fc.integer({ min: 1, max: 8 }) }),
    fc.record({
      kind: fc.constant('duplicate'),
      at: fc.nat(),
      length: fc.integer({ min: 1, max: 32 }),
      times: fc.integer({ min: 1, max: 200 }),
    }),
    fc.record({ kind: fc.constant('case'), at: fc.nat() }),
  );

/** @typedef {ReturnType<typeof textOp> extends import('fast-check').Arbitrary<infer Op> ? Op : never} TextOp */

/**
 * Applies text mutations to `seed`.
 * @param {string} seed
 * @param {TextOp[]} ops
 */
export function mutateText(seed, ops) {
  let text = seed;
  for (const op of ops) {
    const at = op.at % (text.length + 1);
    if (op.kind === 'insert') text = text.slice(0, at) + op.text + text.slice(at);
    else if (op.kind === 'delete') text = text.slice(0, at) + text.slice(at + op.length);
    else if (op.kind === 'duplicate')
      text = text.slice(0, at) + text.slice(at, at + op.length).repeat(op.times) + text.slice(at);
    else text = text.slice(0, at) + text.slice(at, at + 1).toUpperCase() + text.slice(at + 1);
  }
  return text;
}

/**
 * Inputs for a text parser: mutated seeds, seeds glued together, and arbitrary strings.
 * @param {string[]} seeds
 * @param {string[]} dictionary
 * @returns {import('fast-check').Arbitrary<string>}
 */
export function textFrom(seeds, dictionary) {
  return fc.oneof(
    {
      arbitrary: fc
        .tuple(fc.constantFrom(...seeds), fc.array(textOp(dictionary), { minLength: 1, maxLength: 6 }))
        .map(([seed, ops]) => mutateText(seed, ops)),
      weight: 6,
    },
    {
      arbitrary: fc
        .tuple(
          fc.array(fc.constantFrom(...seeds, ...dictionary), { maxLength: 12 }),
          fc.constantFrom(',', ';', '/', ''),
        )
        .map(([parts, separator]) => parts.join(separator)),
      weight: 2,
    },
    { arbitrary: fc.string({ maxLength: 64 }), weight: 1 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 64 }), weight: 1 },
  );
}
