// Generates the priority capability's images from the real photos in fixtures/images:
//   node bench/priority/make-images.mjs fixtures  -> workers/test/priority/fixtures/ (many encoders and scan scripts)
//   node bench/priority/make-images.mjs demo      -> apps/speedtest/public/demo/priority/ (10 progressive JPEGs)
// Two JPEG encoders on purpose: sharp (libvips with MozJPEG; optimised scan scripts) and libjpeg-turbo's
// cjpeg/jpegtran (the libjpeg default script, custom -scans scripts, restart intervals, arithmetic coding).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photosDir } from '../../scripts/lib/tools.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

export { photosDir };
export const fixturesDir = join(repoRoot, 'workers/test/priority/fixtures');
export const demoDir = join(repoRoot, 'apps/speedtest/public/demo/priority');

/** Custom scan scripts for jpegtran -scans (component: Ss-Se, Ah, Al). */
const scanScripts = {
  // DC sent one component at a time, chroma first, spectral selection only: the preview ends late.
  'chroma-first': [
    '1: 0-0, 0, 0;',
    '2: 0-0, 0, 0;',
    '0: 0-0, 0, 0;',
    '0: 1-2, 0, 0;',
    '0: 3-9, 0, 0;',
    '1: 1-63, 0, 0;',
    '2: 1-63, 0, 0;',
    '0: 10-63, 0, 0;',
  ],
  // Deep successive approximation: every coefficient arrives in several refinement passes.
  'deep-approximation': [
    '0,1,2: 0-0, 0, 2;',
    '0: 1-5, 0, 3;',
    '0: 1-5, 3, 2;',
    '0: 6-63, 0, 2;',
    '1: 1-63, 0, 1;',
    '2: 1-63, 0, 1;',
    '0: 1-63, 2, 1;',
    '0,1,2: 0-0, 2, 1;',
    '0,1,2: 0-0, 1, 0;',
    '0: 1-63, 1, 0;',
    '1: 1-63, 1, 0;',
    '2: 1-63, 1, 0;',
  ],
};

const exif = { IFD0: { ImageDescription: 'speedkit priority fixture '.repeat(40), Copyright: 'CC0' } };

/** @param {string} command @param {string[]} args @param {Buffer} input */
function run(command, args, input) {
  return execFileSync(command, args, { input, maxBuffer: 64 << 20 });
}

/** A binary PPM for cjpeg, which does not read PNG. @param {string} source */
async function ppm(source) {
  const { data, info } = await sharp(source)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return Buffer.concat([Buffer.from(`P6\n${info.width} ${info.height}\n255\n`), data]);
}

/**
 * Every variant of one photo: name -> bytes.
 * @param {string} source @param {boolean} grey
 */
async function variantsOf(source, grey) {
  const base = () => sharp(source);
  /** @type {Record<string, Buffer>} */
  const out = {
    'sharp-mozjpeg-progressive.jpg': await base().jpeg({ quality: 80, progressive: true, mozjpeg: true }).toBuffer(),
    'sharp-progressive.jpg': await base().jpeg({ quality: 80, progressive: true }).toBuffer(),
    'sharp-progressive-444.jpg': await base()
      .jpeg({ quality: 90, progressive: true, chromaSubsampling: '4:4:4' })
      .toBuffer(),
    'sharp-baseline.jpg': await base().jpeg({ quality: 80 }).toBuffer(),
    'sharp-mozjpeg-progressive-exif-icc.jpg': await base()
      .withIccProfile('p3')
      .withExif(exif)
      .jpeg({ quality: 80, progressive: true, mozjpeg: true })
      .toBuffer(),
    'sharp-baseline-exif-icc.jpg': await base().withIccProfile('p3').withExif(exif).jpeg({ quality: 80 }).toBuffer(),
    'image.png': await base().resize(256).png().toBuffer(),
    'image.gif': await base().resize(128).gif().toBuffer(),
    'lossy.webp': await base().webp({ quality: 75 }).toBuffer(),
    'lossless.webp': await base().resize(128).webp({ lossless: true }).toBuffer(),
    'image.avif': await base().resize(256).avif({ quality: 50, effort: 0 }).toBuffer(),
  };
  const baseline = /** @type {Buffer} */ (out['sharp-baseline-exif-icc.jpg']);
  const pixels = await ppm(source);
  out['cjpeg-progressive.jpg'] = run('cjpeg', ['-quality', '80', '-progressive'], pixels);
  out['cjpeg-progressive-restart.jpg'] = run('cjpeg', ['-quality', '80', '-progressive', '-restart', '1'], pixels);
  out['cjpeg-baseline-restart.jpg'] = run('cjpeg', ['-quality', '80', '-restart', '2B'], pixels);
  out['cjpeg-arithmetic-progressive.jpg'] = run('cjpeg', ['-quality', '80', '-progressive', '-arithmetic'], pixels);
  out['cjpeg-grayscale-progressive.jpg'] = run('cjpeg', ['-grayscale', '-progressive'], pixels);
  out['jpegtran-progressive-copy-all.jpg'] = run('jpegtran', ['-progressive', '-copy', 'all'], baseline);
  if (!grey) {
    for (const [name, lines] of Object.entries(scanScripts)) {
      const script = join(tmpdir(), `speedkit-scans-${process.pid}-${name}.txt`);
      writeFileSync(script, `${lines.join('\n')}\n`);
      out[`jpegtran-scans-${name}.jpg`] = run('jpegtran', ['-scans', script, '-copy', 'all'], baseline);
      rmSync(script);
    }
  }
  return out;
}

function photos() {
  return readdirSync(photosDir)
    .filter((name) => /\.(png|jpe?g)$/.test(name))
    .sort();
}

/**
 * Writes into a fresh directory and swaps it in, so tests running meanwhile never see a half-written set.
 * @param {string} dir @param {(into: string) => Promise<void>} fill
 */
async function replaceDir(dir, fill) {
  const fresh = `${dir}.tmp-${process.pid}`;
  rmSync(fresh, { recursive: true, force: true });
  mkdirSync(fresh, { recursive: true });
  await fill(fresh);
  rmSync(dir, { recursive: true, force: true });
  renameSync(fresh, dir);
}

async function makeFixtures() {
  await replaceDir(fixturesDir, writeFixtures);
}

/** @param {string} into */
async function writeFixtures(into) {
  let count = 0;
  for (const photo of photos()) {
    const source = join(photosDir, photo);
    const { channels } = await sharp(source).metadata();
    const stem = photo.replace(/\.\w+$/, '');
    for (const [name, bytes] of Object.entries(await variantsOf(source, channels === 1))) {
      writeFileSync(join(into, `${stem}--${name}`), bytes);
      count++;
    }
  }
  process.stdout.write(`wrote ${count} fixtures to ${fixturesDir}\n`);
}

/** The demo page's ten images: every photo once, and three larger crops so the page weighs about a megabyte. */
/** @type {[photo: string, width: number, name: string | null][]} */
export const demoImages = [
  ['astronaut.png', 512, null],
  ['chelsea.png', 451, null],
  ['coffee.png', 600, null],
  ['hubble_deep_field.jpg', 1000, null],
  ['brick.png', 512, null],
  ['grass.png', 512, null],
  ['gravel.png', 512, null],
  ['astronaut.png', 800, 'astronaut-large'],
  ['coffee.png', 900, 'coffee-large'],
  ['hubble_deep_field.jpg', 700, 'hubble-small'],
];

async function makeDemo() {
  await replaceDir(demoDir, writeDemo);
}

/** @param {string} into */
async function writeDemo(into) {
  for (const [photo, width, name] of demoImages) {
    const file = `${name ?? photo.replace(/\.\w+$/, '')}.jpg`;
    const bytes = await sharp(join(photosDir, photo))
      .resize({ width })
      .jpeg({ quality: 90, progressive: true, mozjpeg: true, chromaSubsampling: '4:4:4' })
      .toBuffer();
    writeFileSync(join(into, file), bytes);
  }
  process.stdout.write(`wrote ${demoImages.length} demo images to ${demoDir}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const mode = process.argv[2];
  if (mode === 'fixtures') await makeFixtures();
  else if (mode === 'demo') await makeDemo();
  else {
    process.stderr.write('usage: make-images.mjs fixtures|demo\n');
    process.exit(2);
  }
}
