// Writes a Speed Page report from sample runs, for the report's Playwright test (e2e/speed-page-report.spec.ts):
// frames are real JPEGs (coloured blocks appearing at set times) through the same Speed Index, filmstrip and report
// code as the lab; only the browser and network part is left out. Two profiles; "Image negotiation" is made clearly
// faster than "Worker, all off" (a claim), "Priority headers" the same (no claim).
//   node bench/speed-page/test/sample-report.mjs <out dir>
import sharp from 'sharp';
import { filmstrip, visualMetrics } from '../frames.mjs';
import { profiles } from '../profiles.mjs';
import { writeResults } from '../results.mjs';
import { seededRandom } from '../stats.mjs';
import { allVariants } from '../variants.mjs';

const outDir = process.argv[2];
if (!outDir) throw new Error('usage: node sample-report.mjs <out dir>');
const variants = allVariants.filter((v) => ['origin', 'worker-off', 'images', 'priority'].includes(v.id));
const random = seededRandom(3);
const runsPerVariant = 3;

/** @param {number} shown blocks painted, of 4 */
async function frameJpeg(shown) {
  const widthPx = 320;
  const heightPx = 200;
  const pixels = Buffer.alloc(widthPx * heightPx * 3, 255);
  for (let block = 0; block < shown; block++) {
    for (let y = 20; y < 180; y++) {
      for (let x = 10 + block * 75; x < 75 + block * 75; x++)
        pixels.set([40 * block, 90, 200 - 40 * block], (y * widthPx + x) * 3);
    }
  }
  return sharp(pixels, { raw: { width: widthPx, height: heightPx, channels: 3 } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

const jpegs = await Promise.all([0, 1, 2, 3, 4].map(frameJpeg));
/** @type {Record<string, number>} */
const speedUp = { origin: 1.1, 'worker-off': 1, images: 0.6, priority: 1 };
const runs = [];
/** @type {Record<string, Record<string, any>>} */
const filmstrips = {};
for (const profile of ['desktop', 'mobile']) {
  const scale = profile === 'mobile' ? 3 : 1;
  filmstrips[profile] = {};
  for (let run = 1; run <= runsPerVariant; run++) {
    for (const variant of variants) {
      const jitter = 1 + (random() - 0.5) * 0.04;
      const reveal = [300, 600, 900, 1200].map((ms) => ms * scale * speedUp[variant.id] * jitter);
      const frames = [];
      for (let timeMs = 50; timeMs <= reveal[3] + 300; timeMs += 50) {
        frames.push({ timeMs, jpeg: jpegs[reveal.filter((at) => at <= timeMs).length] });
      }
      const visual = await visualMetrics(frames);
      const bytes = variant.id === 'images' ? 700_000 : 1_800_000;
      runs.push({
        profile,
        variant: variant.id,
        run,
        protocol: variant.hops.length ? 'h2' : 'http/1.1',
        ttfbMs: 100 * scale * jitter,
        fcpMs: reveal[0],
        lcpMs: reveal[2],
        lcpElement: 'img /img/hero.jpg',
        cls: 0.01,
        tbtMs: 40 * scale,
        totalBytes: bytes * jitter,
        requests: 14,
        byClass: { html: { bytes: 3000, requests: 1 }, image: { bytes: bytes * jitter - 3000, requests: 13 } },
        speedIndexMs: visual.speedIndexMs,
        visuallyComplete85Ms: visual.visuallyComplete85Ms,
        visuallyComplete100Ms: visual.visuallyComplete100Ms,
        firstVisualChangeMs: visual.firstVisualChangeMs,
        frames: frames.length,
        progress: visual.progress.map((p) => [Math.round(p.timeMs), Math.round(p.progress * 1000) / 10]),
      });
      if (run === 2) {
        const strip = await filmstrip(frames, 1300 * scale * 1.1 + 200, profiles[profile].thumbWidthPx);
        filmstrips[profile][variant.id] = {
          run,
          lcpMs: reveal[2],
          visuallyComplete100Ms: visual.visuallyComplete100Ms,
          ...strip,
        };
      }
    }
  }
}
const { dir } = writeResults({
  url: 'http://sample.test/',
  site: 'sample',
  outDir,
  measured: { runs, filmstrips, variants, rttMechanism: 'sample data (no link)' },
  runsPerVariant,
  notes: ['Sample data for the report test.'],
});
process.stdout.write(`${dir}\n`);
