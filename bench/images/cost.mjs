// Run with `node bench/images/cost.mjs` (npm run bench:images runs it too): milliseconds per megapixel of each stage
// of the Worker's transform (decode per format, resize, encode per format), measured with the Worker's own codecs.ts.
// These are the constants of workers/src/images/core/work-budget.ts. Writes bench/results/images-cost.{csv,json}. A progressive
// JPEG's decode is also measured per scan (sharp writes 10 scans), the figure behind `jpegMsPerScanMegapixel`.
// The encoder ladder (`encoderLadders`: libwebp methods, libavif speeds) is measured too: each setting's encode cost
// and its ratio to full effort in the same run (ratios survive the machine's load better than absolute figures), plus
// bytes and SSIM on the photo and on a 2.9 MP hero-sized one, so a faster rung is known to cost bytes, not looks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photosDir } from '../../scripts/lib/tools.mjs';
import { ssim } from './ssim.mjs';
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

// Encoder settings: the ladder's rungs plus their neighbours, so the choice of rungs can be checked against the rest.
const settings = [
  ...[4, 5, 6, 3, 2, 1, 0].map((method) => ({ format: 'webp', id: `m${method}`, setting: { webpMethod: method } })),
  ...[8, 6, 7, 9, 10].map((speed) => ({ format: 'avif', id: `s${speed}`, setting: { avifSpeed: speed } })),
];
/** A hero-sized photo: the demo site's 1600 px wide hero (1600x1395, 2.2 MP), from the same fixture. */
const heroWidth = 1600;
const heroRaw = await sharp(join(photosDir, 'hubble_deep_field.jpg'))
  .resize({ width: heroWidth })
  .ensureAlpha()
  .raw()
  .toBuffer({ resolveWithObject: true });
const hero = { data: new Uint8ClampedArray(heroRaw.data), width: heroRaw.info.width, height: heroRaw.info.height };
/** @param {Uint8Array} bytes @param {'webp' | 'avif'} format */
const decodedRgba = async (bytes, format) => {
  const image = await codecs.decode(bytes, format, 0);
  return { data: image.data, width: image.width, height: image.height };
};
/**
 * @type {{ format: string, setting: string, msPerMegapixel: number, costRatio: number, photoBytes: number,
 *   photoSsim: number, heroBytes: number, heroBytesRatio: number, heroSsim: number }[]}
 */
const ladderRows = [];
for (const { format, id, setting } of settings) {
  const kind = /** @type {'webp' | 'avif'} */ (format);
  const photoBytes = await codecs.encode(pixels, kind, 85, setting);
  const heroBytes = await codecs.encode(hero, kind, 85, setting);
  ladderRows.push({
    format,
    setting: id,
    msPerMegapixel: Number.NaN,
    costRatio: Number.NaN,
    photoBytes: photoBytes.byteLength,
    photoSsim: ssim(pixels, await decodedRgba(photoBytes, kind)),
    heroBytes: heroBytes.byteLength,
    heroBytesRatio: Number.NaN,
    heroSsim: ssim(hero, await decodedRgba(heroBytes, kind)),
  });
}
// Timing, interleaved: every round encodes the photo once at every setting, so a change in the machine's load hits
// all settings of that round alike; a setting's cost ratio is the median over rounds of its time over full effort's
// time in the same round. The encodes above were the warm-up.
const ladderRounds = 7;
const fullEffortId = (/** @type {string} */ format) => (format === 'webp' ? 'm4' : 's8');
/** @type {Map<string, number[]>} */
const timesById = new Map(settings.map((entry) => [`${entry.format}/${entry.id}`, []]));
/** @type {Map<string, number[]>} */
const ratiosById = new Map(settings.map((entry) => [`${entry.format}/${entry.id}`, []]));
for (let round = 0; round < ladderRounds; round += 1) {
  /** @type {Map<string, number>} */
  const thisRound = new Map();
  for (const { format, id, setting } of settings) {
    const startMs = performance.now();
    await codecs.encode(pixels, /** @type {'webp' | 'avif'} */ (format), 85, setting);
    thisRound.set(`${format}/${id}`, performance.now() - startMs);
  }
  for (const { format, id } of settings) {
    const ms = thisRound.get(`${format}/${id}`) ?? Number.NaN;
    timesById.get(`${format}/${id}`)?.push(ms);
    ratiosById.get(`${format}/${id}`)?.push(ms / (thisRound.get(`${format}/${fullEffortId(format)}`) ?? Number.NaN));
  }
}
const middle = (/** @type {number[]} */ values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
for (const row of ladderRows) {
  row.msPerMegapixel = (middle(timesById.get(`${row.format}/${row.setting}`) ?? []) ?? Number.NaN) / megapixels;
  row.costRatio = middle(ratiosById.get(`${row.format}/${row.setting}`) ?? []) ?? Number.NaN;
}
const fullOf = (/** @type {string} */ format) =>
  ladderRows.find((row) => row.format === format && row.setting === fullEffortId(format));

console.log(
  `\nCost per megapixel of the Worker's codecs (${megapixels} MP photo, median of ${runs}, Node ${process.version}):`,
);
console.log('| stage | format | ms per MP |');
console.log('| --- | --- | --- |');
for (const row of rows) console.log(`| ${row.stage} | ${row.format} | ${row.msPerMegapixel.toFixed(0)} |`);
console.log(
  `\nEncoder settings at quality 85 (${megapixels} MP photo timed in ${ladderRounds} interleaved rounds, ratio = median of per-round ratios; bytes and SSIM also on the ${hero.width}x${hero.height} hero):`,
);
console.log(
  '| format | setting | ms per MP | × full effort | photo bytes | photo SSIM | hero bytes | × full effort | hero SSIM |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of ladderRows) {
  const full = fullOf(row.format);
  row.heroBytesRatio = full ? row.heroBytes / full.heroBytes : Number.NaN;
  console.log(
    `| ${row.format} | ${row.setting} | ${row.msPerMegapixel.toFixed(0)} | ${row.costRatio.toFixed(2)} | ${row.photoBytes} | ${row.photoSsim.toFixed(4)} | ${row.heroBytes} | ${row.heroBytesRatio.toFixed(2)} | ${row.heroSsim.toFixed(4)} |`,
  );
}
const loadAverage = loadavg().map((load) => load.toFixed(1));
console.log(`load average at the end: ${loadAverage.join(' ')}`);
const resultsDir = join(repoRoot, 'bench', 'results');
mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'images-cost.json'),
  `${JSON.stringify({ date: new Date().toISOString(), loadAverage, megapixels, runs, rows, ladderRows }, null, 2)}\n`,
);
writeFileSync(
  join(resultsDir, 'images-cost.csv'),
  `stage,format,ms_per_megapixel\n${rows.map((row) => `${row.stage},${row.format},${row.msPerMegapixel.toFixed(1)}`).join('\n')}\n`,
);
writeFileSync(
  join(resultsDir, 'images-cost-ladder.csv'),
  `format,setting,ms_per_megapixel,cost_ratio,photo_bytes,photo_ssim,hero_bytes,hero_bytes_ratio,hero_ssim\n${ladderRows
    .map((row) =>
      [
        row.format,
        row.setting,
        row.msPerMegapixel.toFixed(1),
        row.costRatio.toFixed(3),
        row.photoBytes,
        row.photoSsim.toFixed(4),
        row.heroBytes,
        row.heroBytesRatio.toFixed(3),
        row.heroSsim.toFixed(4),
      ].join(','),
    )
    .join('\n')}\n`,
);
console.log('wrote bench/results/images-cost.{csv,json} and images-cost-ladder.csv');
