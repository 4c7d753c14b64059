// Run with `node bench/images/lossless.mjs` (npm run bench:images runs it too): the graphics rule of the image Worker
// (workers/src/images/core/lossless.ts) on every lossless source in the repository, the graphics of fixtures/graphics
// and the photos saved as PNG: repeat share, bytes of lossy WebP and AVIF (the negotiated quality 85) against lossless
// WebP (method 1, the Worker's rung, and method 4), what the lossy variants change (mean and largest channel error on
// visible pixels), the encode time of lossless against lossy WebP in the same run (the ratio behind
// `losslessWebpRung`), and what the Worker serves to a WebP-only browser and to one that also takes AVIF.
// Writes bench/results/images-lossless.{csv,json}. `--extra DIR` adds every PNG of DIR (your own graphics) as kind
// `extra`; those runs print the table and write nothing.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { graphicsDir, photosDir } from '../../scripts/lib/tools.mjs';
import { codecs } from './worker-codecs.mjs';

const rule = await import('../../workers/src/images/core/lossless.ts');
const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const quality = 85;
const runs = 3;

/**
 * Median wall time of `runs` calls after one warm-up, in ms, and the last result.
 * @template T @param {() => Promise<T>} work @returns {Promise<{ ms: number, result: T }>}
 */
async function timed(work) {
  let result = await work();
  const times = [];
  for (let run = 0; run < runs; run += 1) {
    const startMs = performance.now();
    result = await work();
    times.push(performance.now() - startMs);
  }
  return { ms: times.sort((a, b) => a - b)[Math.floor(runs / 2)] ?? 0, result };
}

/**
 * Mean and largest difference per colour channel over pixels visible in the source (alpha > 0).
 * @param {{ data: Uint8ClampedArray }} a @param {{ data: Uint8ClampedArray }} b
 */
function channelError(a, b) {
  let sum = 0;
  let count = 0;
  let max = 0;
  for (let index = 0; index < a.data.length; index += 4) {
    if ((a.data[index + 3] ?? 0) === 0) continue;
    for (let channel = 0; channel < 3; channel += 1) {
      const difference = Math.abs((a.data[index + channel] ?? 0) - (b.data[index + channel] ?? 0));
      sum += difference;
      max = Math.max(max, difference);
      count += 1;
    }
  }
  return { mean: count ? sum / count : 0, max };
}

const extraAt = process.argv.indexOf('--extra');
const extraDir = extraAt > 0 ? process.argv[extraAt + 1] : undefined;
if (extraAt > 0 && !extraDir) throw new Error('--extra needs a folder of PNG files');
const sources = [
  ...(extraDir
    ? readdirSync(extraDir)
        .filter((name) => name.endsWith('.png'))
        .map((name) => ({ kind: 'extra', name, path: join(extraDir, name) }))
    : []),
  ...readdirSync(graphicsDir)
    .filter((name) => name.endsWith('.png'))
    .map((name) => ({ kind: 'graphic', name, path: join(graphicsDir, name) })),
  ...readdirSync(photosDir)
    .filter((name) => name.endsWith('.png'))
    .map((name) => ({ kind: 'photo', name, path: join(photosDir, name) })),
];

const rows = [];
for (const source of sources) {
  const bytes = new Uint8Array(readFileSync(source.path));
  const pixels = await codecs.decode(bytes, 'png', 0);
  const megapixels = (pixels.width * pixels.height) / 1e6;
  const lossyWebp = await timed(() => codecs.encode(pixels, 'webp', quality));
  const lossyAvif = await codecs.encode(pixels, 'avif', quality);
  const rung = await timed(() => codecs.encode(pixels, 'webp', quality, { webpLossless: true, webpMethod: 1 }));
  const m4 = await codecs.encode(pixels, 'webp', quality, { webpLossless: true, webpMethod: 4 });
  const exact = channelError(pixels, await codecs.decode(rung.result, 'webp', 0)).max === 0;
  const webpError = channelError(pixels, await codecs.decode(lossyWebp.result, 'webp', 0));
  const avifError = channelError(pixels, await codecs.decode(lossyAvif, 'avif', 0));
  const share = rule.repeatShare(pixels);
  const tried = share >= rule.graphicMinRepeatShare;
  const lossless = rung.result.byteLength;
  const webpAnswer = tried && rule.losslessWins(lossless, lossyWebp.result.byteLength) ? 'lossless' : 'lossy';
  const avifAnswer = tried && rule.losslessWins(lossless, lossyAvif.byteLength) ? 'lossless webp' : 'lossy avif';
  rows.push({
    kind: source.kind,
    image: source.name,
    megapixels: Number(megapixels.toFixed(3)),
    repeatShare: Number(share.toFixed(3)),
    pngBytes: bytes.byteLength,
    lossyWebpBytes: lossyWebp.result.byteLength,
    lossyAvifBytes: lossyAvif.byteLength,
    losslessM1Bytes: lossless,
    losslessM4Bytes: m4.byteLength,
    losslessExact: exact,
    losslessOverLossyWebp: Number((lossless / lossyWebp.result.byteLength).toFixed(3)),
    losslessOverLossyAvif: Number((lossless / lossyAvif.byteLength).toFixed(3)),
    lossyWebpMeanError: Number(webpError.mean.toFixed(2)),
    lossyWebpMaxError: webpError.max,
    lossyAvifMeanError: Number(avifError.mean.toFixed(2)),
    lossyAvifMaxError: avifError.max,
    lossyWebpMs: Number(lossyWebp.ms.toFixed(1)),
    losslessM1Ms: Number(rung.ms.toFixed(1)),
    losslessTimeRatio: Number((rung.ms / lossyWebp.ms).toFixed(2)),
    webpClientGets: webpAnswer,
    avifClientGets: avifAnswer,
  });
}

const load = loadavg().map((value) => value.toFixed(2));
console.log(`\nGraphics rule (quality ${quality}; lossless = WebP method 1), load ${load.join(' / ')}`);
console.log(
  '| image | kind | MP | repeat share | PNG KB | lossy WebP KB | lossy AVIF KB | lossless KB (m4) | lossless / lossy WebP | lossless / AVIF | lossy WebP error mean / max | AVIF error mean / max | lossless time / lossy | WebP browser gets | AVIF browser gets |',
);
console.log('|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|');
const kb = (/** @type {number} */ bytes) => (bytes / 1024).toFixed(1);
for (const row of rows) {
  console.log(
    `| ${row.image} | ${row.kind} | ${row.megapixels} | ${row.repeatShare} | ${kb(row.pngBytes)} | ` +
      `${kb(row.lossyWebpBytes)} | ${kb(row.lossyAvifBytes)} | ${kb(row.losslessM1Bytes)} (${kb(row.losslessM4Bytes)}) | ` +
      `${row.losslessOverLossyWebp} | ${row.losslessOverLossyAvif} | ${row.lossyWebpMeanError} / ${row.lossyWebpMaxError} | ` +
      `${row.lossyAvifMeanError} / ${row.lossyAvifMaxError} | ${row.losslessTimeRatio} | ${row.webpClientGets} | ` +
      `${row.avifClientGets} |`,
  );
}
const inexact = rows.filter((row) => !row.losslessExact);
if (inexact.length > 0)
  throw new Error(`lossless WebP changed pixels of ${inexact.map((row) => row.image).join(', ')}`);

if (extraDir) process.exit(0);
const resultsDir = join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
const header = Object.keys(rows[0] ?? {});
writeFileSync(
  join(resultsDir, 'images-lossless.csv'),
  `${[header.join(','), ...rows.map((row) => header.map((key) => String(row[/** @type {keyof typeof row} */ (key)])).join(','))].join('\n')}\n`,
);
writeFileSync(
  join(resultsDir, 'images-lossless.json'),
  `${JSON.stringify({ date: new Date().toISOString(), loadAverage: load, quality, rows }, null, 2)}\n`,
);
console.log('wrote bench/results/images-lossless.{csv,json}');
