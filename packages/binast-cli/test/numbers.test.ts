import { brotliCompressSync, constants } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodeToJavaScript, encodeJavaScript } from '../src/codec.mjs';

/** A small seeded generator (xorshift32), so the inputs are the same on every run. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  return (below: number) => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state % below;
  };
}

const brotli = (text: string) =>
  brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Bytes of the context layout for `source`, after checking it decodes to what the optimised layout gives. */
const bytes = (source: string) => {
  const encoded = encodeJavaScript(source, { layout: 'context' });
  expect(decodeToJavaScript(encoded)).toBe(decodeToJavaScript(encodeJavaScript(source, { layout: 'optimised' })));
  return encoded.length;
};

describe('the context layout codes numbers that are not small integers', () => {
  it('short decimals as m × 10^e: about their information, under brotli of the text', () => {
    const next = random(7);
    const numbers = Array.from({ length: 1000 }, () => String(next(10_000) / 10_000));
    const source = `var t=[${numbers.join(',')}];`;
    // Four random digits hold 13.3 bits. When this was written: 1,803 bytes (1.8 a number), brotli 11 2,033; as
    // 8-byte doubles (format 5) they cost about 5 bytes each.
    expect(bytes(source)).toBeLessThan(2 * numbers.length);
    expect(bytes(source)).toBeLessThan(0.95 * brotli(source));
  });

  it('exactly, whatever their form: long, tiny, huge, and integers beyond the small ones', () => {
    const next = random(11);
    const numbers = [
      ...Array.from({ length: 200 }, () => String(next(1_000_000) / 1_000_000 + next(1000))),
      ...Array.from({ length: 200 }, () => String((next(1 << 30) + 1) / 3)),
      '1e-7',
      '1.1102230246251565e-16',
      '1e21',
      '1e23',
      '5e-324',
      '1.7976931348623157e308',
      '4294967295',
      '9007199254740993',
      '0.1',
      '0.30000000000000004',
    ];
    const source = `var t=[${numbers.join(',')}];`;
    const decoded = decodeToJavaScript(encodeJavaScript(source, { layout: 'context' }));
    const values = new Function(`${decoded};return t`)() as number[];
    expect(values).toEqual(numbers.map(Number));
  });
});
