// Run with `node bench/images/cost.mjs` (npm run bench:images runs it too): milliseconds per megapixel of each stage
// of the Worker's transform (decode per format, resize, encode per format), measured with the Worker's own codecs.ts.
// These are the constants of workers/src/images/core/work-budget.ts. Writes bench/results/images-cost.{csv,json}. A progressive
// JPEG's decode is also measured per scan (sharp writes 10 scans), the figure behind `jpegMsPerScanMegapixel`.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photosDir } from '../../scripts/lib/tools.mjs';
import { codecs } from './worker-codecs.mjs';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

const runs = 3;
/** Median wall time of `runs` calls (after one warm-up), in ms. */
async function median(/** @type {() => Promise<unknown>} */ work) {
  await work();
  const times = [];
  for (let i = 0; i < runs; i += 1) {
    const startMs = performance.now();
    await work();
    times.push(performance.now() - startMs);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

const rows = [];
const megapixels = 1;
const width = Math.round(Math.sqrt(megapixels * 1e6 * 1.25));
const height = Math.round((megapixels * 1e6) / width);
const photo = sharp(join(photosDir, 'hubble_deep_field.jpg')).resize(width, height, { fit: 'fill' });
const raw = await photo.clone().ensureAlpha().raw().toBuffer();
const pixels = { data: new Uint8ClampedArray(raw), width, height };
const sources = {
  jpeg: await photo.clone().jpeg({ quality: 85, progressive: false }).toBuffer(),
  'jpeg-progressive': await photo.clone().jpeg({ quality: 85, progressive: true }).toBuffer(),
  png: await photo.clone().png().toBuffer(),
  webp: await photo.clone().webp({ quality: 85 }).toBuffer(),
  avif: await photo.clone().avif({ quality: 60, effort: 2 }).toBuffer(),
};
for (const [name, bytes] of Object.entries(sources)) {
  const format = /** @type {import('../../workers/src/images/core/formats').CodecFormat} */ (
    name === 'jpeg-progressive' ? 'jpeg' : name
  );
  const ms = await median(() => codecs.decode(new Uint8Array(bytes), format, 0));
  rows.push({ stage: 'decode', format: name, msPerMegapixel: ms / megapixels });
}
const half = { width: Math.round(width / 2), height: Math.round(height / 2) };
const resizeMs = await median(() => codecs.resizePixels(pixels, half.width, half.height));
rows.push({ stage: 'resize', format: 'in+out', msPerMegapixel: resizeMs / (megapixels * 1.25) });
for (const format of /** @type {const} */ (['avif', 'webp', 'jpeg', 'png'])) {
  const ms = await median(() => codecs.encode(pixels, format, 85));
  rows.push({ stage: 'encode', format, msPerMegapixel: ms / megapixels });
}
const baselineMs = await median(() => codecs.encodeBaselineJpeg(pixels, 85));
rows.push({ stage: 'encode', format: 'baseline-jpeg', msPerMegapixel: baselineMs / megapixels });

console.log(
  `\nCost per megapixel of the Worker's codecs (${megapixels} MP photo, median of ${runs}, Node ${process.version}):`,
);
console.log('| stage | format | ms per MP |');
console.log('| --- | --- | --- |');
for (const row of rows) console.log(`| ${row.stage} | ${row.format} | ${row.msPerMegapixel.toFixed(0)} |`);
const resultsDir = join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'images-cost.json'),
  `${JSON.stringify({ date: new Date().toISOString(), megapixels, runs, rows }, null, 2)}\n`,
);
writeFileSync(
  join(resultsDir, 'images-cost.csv'),
  `stage,format,ms_per_megapixel\n${rows.map((row) => `${row.stage},${row.format},${row.msPerMegapixel.toFixed(1)}`).join('\n')}\n`,
);
console.log('wrote bench/results/images-cost.{csv,json}');
