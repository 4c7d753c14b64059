import { firstDifference } from '@speedkit/binast/ast-equal';
import { parse } from 'acorn';
import { beforeEach, expect, it } from 'vitest';
import { decodeScript } from '../../src/binast/codec';
import { binastAccept, callBinast, clearVariants, demoScript } from './helpers';

beforeEach(clearVariants);

/** `count` bytes that look like a compressed file (a Wasm module, a WOFF2 font): xorshift output. */
function compressedLooking(count: number): Uint8Array {
  const bytes = new Uint8Array(count);
  let state = 0x2545f491;
  for (let i = 0; i < count; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    bytes[i] = state & 0xff;
  }
  return bytes;
}

const base64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (byte) => String.fromCharCode(byte)).join(''));

it('serves a bundle that opens with a large base64 data URL as BinaryAST', async () => {
  // What Vite writes for `import codec from './codec.wasm?inline'` or an inlined font: the string first in the
  // chunk, then the code. Until 2026-11-28 the decoder's text budget counted only the bytes read before the
  // string's length, so the Worker's own check refused the encoding ("a string of 600023 bytes exceeds the file's
  // declared total") and the script stayed JavaScript (`unsupported`).
  const path = '/assets/index-BnW7u1.js';
  const library = new TextDecoder().decode((await callBinast(demoScript, null)).bytes);
  const bundle = `var e=\`data:font/woff2;base64,${base64(compressedLooking(450_000))}\`;\n${library}`;
  const origin = async (request: Request) =>
    new URL(request.url).pathname === path
      ? new Response(bundle, { headers: { 'content-type': 'text/javascript', etag: '"bundle-1"' } })
      : new Response('not found', { status: 404 });
  const first = await callBinast(path, binastAccept, {}, origin);
  expect(first.note).toBe('miss; encoding');
  const second = await callBinast(path, binastAccept, {}, origin);
  expect(second.note).toBe('hit');
  expect(second.response.headers.get('content-type')).toBe('application/javascript-binast');
  const options = { ecmaVersion: 'latest', sourceType: 'script' } as const;
  expect(firstDifference(parse(bundle, options), parse(decodeScript(second.bytes), options))).toBeNull();
});
