// Run with `node --expose-gc bench/images/memory.mjs` (npm run bench:images does): how much each Wasm codec's heap
// grows per megapixel, the numbers behind IMAGES_MAX_INPUT_MEGAPIXELS and IMAGES_MAX_AVIF_MEGAPIXELS. Uses jSquash
// directly with one long-lived instance per codec (what the Worker would keep without its release-after-large rule),
// measuring V8's external memory (where Wasm heaps live) after a full GC. Writes bench/results/images-memory.{csv,json}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import avifEncode, { init as initAvifEncode } from '@jsquash/avif/encode.js';
import jpegDecode, { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import jpegEncode, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import webpEncode, { init as initWebpEncode } from '@jsquash/webp/encode.js';
import sharp from 'sharp';
import { photosDir } from '../../scripts/lib/tools.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const gc = /** @type {() => void} */ (globalThis.gc);
if (!gc) throw new Error('run with node --expose-gc');
const externalMb = () => {
  gc();
  return process.memoryUsage().external / 1048576;
};
const wasm = (/** @type {string} */ path) =>
  WebAssembly.compile(readFileSync(join(repoRoot, 'node_modules', '@jsquash', path)));

const codecs = [
  {
    name: 'jpeg decode (MozJPEG)',
    init: initJpegDecode,
    module: 'jpeg/codec/dec/mozjpeg_dec.wasm',
    run: (/** @type {any} */ input) => jpegDecode(input.jpeg),
  },
  {
    name: 'webp encode (libwebp)',
    init: initWebpEncode,
    module: 'webp/codec/enc/webp_enc_simd.wasm',
    run: (/** @type {any} */ input) => webpEncode(input.pixels, { quality: 85 }),
  },
  {
    name: 'jpeg encode (MozJPEG)',
    init: initJpegEncode,
    module: 'jpeg/codec/enc/mozjpeg_enc.wasm',
    run: (/** @type {any} */ input) => jpegEncode(input.pixels, { quality: 85 }),
  },
  {
    name: 'avif encode (libavif)',
    init: initAvifEncode,
    module: 'avif/codec/enc/avif_enc.wasm',
    run: (/** @type {any} */ input) => avifEncode(input.pixels, { quality: 60, speed: 8 }),
  },
  // The work budget's faster AVIF rung: does a faster speed also need less heap (could it lift the AVIF size cap)?
  {
    name: 'avif encode (libavif, speed 10)',
    init: initAvifEncode,
    module: 'avif/codec/enc/avif_enc.wasm',
    run: (/** @type {any} */ input) => avifEncode(input.pixels, { quality: 60, speed: 10 }),
  },
];

const rows = [];
for (const codec of codecs) {
  const module = await wasm(codec.module);
  const before = externalMb();
  await /** @type {any} */ (codec.init)(module);
  const instanceMb = externalMb() - before;
  for (const megapixels of [0.5, 1, 2, 4]) {
    const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.25));
    const height = Math.round((megapixels * 1e6) / width);
    const resized = sharp(join(photosDir, 'hubble_deep_field.jpg')).resize(width, height, { fit: 'fill' });
    const jpeg = await resized.clone().jpeg({ quality: 90 }).toBuffer();
    const raw = await resized.clone().ensureAlpha().raw().toBuffer();
    const input = { jpeg: new Uint8Array(jpeg).buffer, pixels: { data: new Uint8ClampedArray(raw), width, height } };
    const start = externalMb();
    const output = await codec.run(input);
    // Decoders may hand back a view into their own heap: then the pixels are part of the heap, not extra.
    const data = 'data' in output ? output.data : new Uint8Array(output);
    const outputMb = data.buffer.byteLength > data.byteLength ? 0 : data.byteLength / 1048576;
    const heapGrowthMb = externalMb() - start - outputMb;
    rows.push({
      codec: codec.name,
      megapixels,
      instanceMb: instanceMb.toFixed(1),
      heapAfterMb: (16 + Math.max(0, heapGrowthMb)).toFixed(1),
    });
  }
  process.stderr.write(`${codec.name} done\n`);
}
console.table(rows);
const resultsDir = join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const columns = /** @type {const} */ (['codec', 'megapixels', 'instanceMb', 'heapAfterMb']);
writeFileSync(
  join(resultsDir, 'images-memory.csv'),
  `${[columns.join(','), ...rows.map((row) => columns.map((column) => row[column]).join(','))].join('\n')}\n`,
);
writeFileSync(join(resultsDir, 'images-memory.json'), `${JSON.stringify(rows, null, 2)}\n`);
