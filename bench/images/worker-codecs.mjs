// The Worker's own codec module (workers/src/images/edge/codecs.ts) in Node, initialised with the same jSquash Wasm files
// the Worker bundles. Node strips the TypeScript types (Node >= 22.18), so this is byte for byte the Worker's code.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/tools.mjs';

const codecs = await import('../../workers/src/images/edge/codecs.ts');
const wasm = (/** @type {string} */ path) =>
  WebAssembly.compile(readFileSync(join(repoRoot, 'node_modules', '@jsquash', path)));
await codecs.initCodecs({
  avifDecode: await wasm('avif/codec/dec/avif_dec.wasm'),
  avifEncode: await wasm('avif/codec/enc/avif_enc.wasm'),
  jpegDecode: await wasm('jpeg/codec/dec/mozjpeg_dec.wasm'),
  jpegEncode: await wasm('jpeg/codec/enc/mozjpeg_enc.wasm'),
  png: await wasm('png/codec/pkg/squoosh_png_bg.wasm'),
  resize: await wasm('resize/lib/resize/pkg/squoosh_resize_bg.wasm'),
  webpDecode: await wasm('webp/codec/dec/webp_dec.wasm'),
  webpEncode: await wasm('webp/codec/enc/webp_enc_simd.wasm'),
});

export { codecs };
