// What the context layout's size tests share: a seeded generator, brotli-11 of a text, and the size of a source's
// encoding after checking that it decodes to what the optimised layout gives.
import { brotliCompressSync, constants } from 'node:zlib';
import { expect } from 'vitest';
import { decodeToJavaScript, encodeJavaScript } from '../src/codec.mjs';

/** A small seeded generator (xorshift32), so the inputs are the same on every run: a function of `below`. */
export function random(seed: number): (below: number) => number {
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

/** Bytes of brotli quality 11 of `text`. */
export const brotli = (text: string): number =>
  brotliCompressSync(Buffer.from(text), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

/** Bytes of the context layout for `source`, after checking it decodes to what the optimised layout gives. */
export function contextBytes(source: string): number {
  const encoded = encodeJavaScript(source, { layout: 'context' });
  expect(decodeToJavaScript(encoded)).toBe(decodeToJavaScript(encodeJavaScript(source, { layout: 'optimised' })));
  return encoded.length;
}
