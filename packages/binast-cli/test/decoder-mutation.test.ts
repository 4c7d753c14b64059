import { readFileSync } from 'node:fs';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { describe, expect, it } from 'vitest';
import { decodeToJavaScript, encodeJavaScript, parseJavaScript } from '../src/codec.mjs';
import { libraries } from '../src/corpus.mjs';

// Mutation test of the shipped Wasm decoder (the same build the loader runs), seeded from real encodings: every
// mutated file must decode or throw an Error — a Wasm trap (RuntimeError) would poison the instance — and the
// instance must still decode the untouched file afterwards. Deterministic (xorshift), so failures reproduce.
const seedLibraries = ['underscore', 'backbone'];
const mutationsPerSeed = 400;

function xorshift(state: { value: bigint }): number {
  let x = state.value;
  x ^= (x << 13n) & 0xffff_ffff_ffff_ffffn;
  x ^= x >> 7n;
  x ^= (x << 17n) & 0xffff_ffff_ffff_ffffn;
  state.value = x;
  return Number(x & 0x7fff_ffffn);
}

function mutate(good: Uint8Array, random: () => number): Uint8Array {
  const bytes = Array.from(good);
  const edits = 1 + (random() % 4);
  for (let i = 0; i < edits; i++) {
    const at = random() % bytes.length;
    switch (random() % 5) {
      case 0:
        bytes[at] = (bytes[at] ?? 0) ^ (1 << (random() % 8));
        break;
      case 1:
        bytes.splice(at, 0, random() % 256);
        break;
      case 2:
        bytes.splice(at, 1);
        break;
      case 3:
        bytes.length = Math.max(6, at);
        break;
      default:
        bytes.splice(at, 0, 0xff, 0xff, 0xff, 0xff, 0x1e);
    }
  }
  return Uint8Array.from(bytes);
}

describe('the Wasm decoder on mutated real encodings', () => {
  for (const name of seedLibraries) {
    const library = libraries.find((entry) => entry.name === name);
    if (!library) throw new Error(`${name} is not in the corpus`);
    for (const layout of ['multipart', 'optimised', 'context'] as const) {
      // 400 decodes take 3-5 s on a loaded 2-core machine, close to vitest's 5 s default: hence the 60 s timeout.
      it(`${name} (${layout}): ${mutationsPerSeed} mutations decode or throw an Error, never trap`, () => {
        const source = readFileSync(library.path, 'utf8');
        const good = encodeJavaScript(source, { layout });
        const state = { value: 0x9e37_79b9_7f4a_7c15n ^ BigInt(good.length) };
        const random = () => xorshift(state);
        let errors = 0;
        for (let i = 0; i < mutationsPerSeed; i++) {
          const bytes = mutate(good, random);
          try {
            decodeToJavaScript(bytes);
          } catch (error) {
            expect((error as Error).name, `mutation ${i}: a Wasm trap`).not.toBe('RuntimeError');
            expect(error).toBeInstanceOf(Error);
            errors++;
          }
        }
        expect(errors).toBeGreaterThan(mutationsPerSeed / 2);
        const regenerated = decodeToJavaScript(good);
        expect(firstDifference(parseJavaScript(source), parseJavaScript(regenerated))).toBeNull();
      }, 60_000);
    }
  }
});
