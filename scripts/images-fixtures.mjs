// Generates the image demo site and the image Worker's test fixtures from the real photos in fixtures/images:
// JPEG (baseline and progressive), PNG and WebP variants, small copies for slow-codec tests, and deliberately broken
// files (truncated, garbage, a decompression-bomb header, an animated GIF). Output is gitignored; scripts/build.mjs
// runs this as a cached step before the SPA build, which copies apps/speedtest/public into dist.
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, parse } from 'node:path';
import { deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { graphicsDir, photosDir, repoRoot } from './lib/tools.mjs';

export const outputDir = join(repoRoot, 'apps', 'speedtest', 'public', 'demo', 'images');

/** CRC-32 as PNG chunks need it. @param {Uint8Array} bytes */
function crc32(bytes) {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

/** @param {string} type @param {Buffer} data */
function pngChunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A valid-looking PNG whose header claims 30000 x 30000 pixels (900 MP, 3.6 GB as RGBA) but whose data is a few
 * bytes: what a decompression bomb looks like to a decoder that trusts the header.
 */
function bombPng() {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(30000, 0);
  header.writeUInt32BE(30000, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(1024))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A little-endian TIFF for an `Exif` segment: XResolution and YResolution (`dotsPerInch`), ResolutionUnit 2 (inches)
 * and an Exif directory with PixelXDimension and PixelYDimension.
 * @param {{ dotsPerInch: number, width: number, height: number }} density
 */
function densityExif({ dotsPerInch, width, height }) {
  const tiff = Buffer.alloc(8 + 2 + 4 * 12 + 4 + 16 + 2 + 2 * 12 + 4);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  const rationalsAt = 8 + 2 + 4 * 12 + 4;
  const exifAt = rationalsAt + 16;
  let at = 8;
  /** @param {[number, number, number][]} entries tag, type, value */
  const directory = (entries) => {
    tiff.writeUInt16LE(entries.length, at);
    at += 2;
    for (const [tag, type, value] of entries) {
      tiff.writeUInt16LE(tag, at);
      tiff.writeUInt16LE(type, at + 2);
      tiff.writeUInt32LE(1, at + 4);
      if (type === 3) tiff.writeUInt16LE(value, at + 8);
      else tiff.writeUInt32LE(value, at + 8);
      at += 12;
    }
    at += 4;
  };
  directory([
    [0x011a, 5, rationalsAt],
    [0x011b, 5, rationalsAt + 8],
    [0x0128, 3, 2],
    [0x8769, 4, exifAt],
  ]);
  for (const offset of [rationalsAt, rationalsAt + 8]) {
    tiff.writeUInt32LE(dotsPerInch, offset);
    tiff.writeUInt32LE(1, offset + 4);
  }
  at = exifAt;
  directory([
    [0xa002, 4, width],
    [0xa003, 4, height],
  ]);
  return tiff;
}

/** `jpeg` with an APP1 `Exif` segment holding `tiff` right after its SOI. */
function withJpegExif(/** @type {Buffer} */ jpeg, /** @type {Buffer} */ tiff) {
  const segment = Buffer.concat([Buffer.from([0xff, 0xe1, 0, 0]), Buffer.from('Exif\0\0', 'latin1'), tiff]);
  segment.writeUInt16BE(segment.length - 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** Writes everything into a scratch folder and swaps it in at the end, so an interrupted run leaves no half set. */
export async function generate() {
  const finalDir = outputDir;
  const scratchDir = `${finalDir}.partial-${process.pid}`;
  rmSync(scratchDir, { recursive: true, force: true });
  const count = await generateInto(scratchDir);
  rmSync(finalDir, { recursive: true, force: true });
  renameSync(scratchDir, finalDir);
  return count;
}

/** @param {string} outputDir */
async function generateInto(outputDir) {
  mkdirSync(join(outputDir, 'small'), { recursive: true });
  mkdirSync(join(outputDir, 'broken'), { recursive: true });
  const names = readdirSync(photosDir)
    .filter((file) => /\.(png|jpe?g)$/i.test(file))
    .sort();
  for (const file of names) {
    const { name } = parse(file);
    const input = sharp(join(photosDir, file));
    await input
      .clone()
      .png({ compressionLevel: 9 })
      .toFile(join(outputDir, `${name}.png`));
    await input
      .clone()
      .jpeg({ quality: 90, mozjpeg: false })
      .toFile(join(outputDir, `${name}.jpg`));
    await input
      .clone()
      .jpeg({ quality: 90, progressive: true })
      .toFile(join(outputDir, `${name}-progressive.jpg`));
    await input
      .clone()
      .webp({ quality: 90 })
      .toFile(join(outputDir, `${name}.webp`));
    // Small copies keep tests that go through the (slow) Wasm AVIF encoder about behaviour, not CPU time.
    const small = input.clone().resize({ width: 96 });
    await small
      .clone()
      .jpeg({ quality: 90 })
      .toFile(join(outputDir, 'small', `${name}.jpg`));
    await small
      .clone()
      .png()
      .toFile(join(outputDir, 'small', `${name}.png`));
    await small
      .clone()
      .webp({ quality: 90 })
      .toFile(join(outputDir, 'small', `${name}.webp`));
    // AVIF from libheif (not the Worker's libavif), so the header reader and decoder see another muxer's output.
    await small
      .clone()
      .avif({ quality: 60 })
      .toFile(join(outputDir, 'small', `${name}.avif`));
  }
  // The Speed Page demo article's hero (its LCP image), made as bench/speed-page/site/build.mjs makes it: 1600 px wide,
  // progressive libjpeg-turbo at q82. At 2.2 MP with 10 scans it is over the work budget at full encoder effort.
  mkdirSync(join(outputDir, 'large'), { recursive: true });
  await sharp(join(photosDir, 'hubble_deep_field.jpg'))
    .resize({ width: 1600 })
    .jpeg({ quality: 82, progressive: true, mozjpeg: false })
    .toFile(join(outputDir, 'large', 'hero-1600-progressive.jpg'));
  // Already squeezed hard: re-encoding at the default quality comes out larger, so the original must be served.
  await sharp(join(photosDir, 'coffee.png'))
    .resize({ width: 96 })
    .jpeg({ quality: 5 })
    .toFile(join(outputDir, 'small', 'coffee-q5.jpg'));
  // One JPEG with EXIF metadata kept, for the metadata option.
  await sharp(join(photosDir, 'chelsea.png'))
    .withMetadata({ exif: { IFD0: { Copyright: 'CC0 Stefan van der Walt', Artist: 'speedkit fixtures' } } })
    .jpeg({ quality: 90 })
    .toFile(join(outputDir, 'small', 'chelsea-exif.jpg'));

  // Cameras and phones store the pixels as the sensor read them and say in EXIF how to turn them for display, which
  // browsers do: a turn that keeps the axes (3), the two quarter turns (6, 8), and the same tag in the other formats,
  // where browsers and codecs differ (served as they are).
  const turned = sharp(join(photosDir, 'chelsea.png')).resize({ width: 96 });
  for (const orientation of [3, 6, 8]) {
    await turned
      .clone()
      .withMetadata({ orientation })
      .jpeg({ quality: 90 })
      .toFile(join(outputDir, 'small', `chelsea-orientation-${orientation}.jpg`));
  }
  for (const format of /** @type {const} */ (['png', 'webp', 'avif'])) {
    await turned
      .clone()
      .withMetadata({ orientation: 6 })
      .toFormat(format)
      .toFile(join(outputDir, 'small', `chelsea-orientation-6.${format}`));
  }

  // A photo exported "@2x": 96×64 pixels whose EXIF says 144 dpi and 48×32, which Chromium lays out at 48×32 (the
  // HTML standard's density-corrected natural size). sharp writes its own resolution and pixel size over any given,
  // so the segment is put in by hand.
  const plain = await sharp(join(photosDir, 'coffee.png')).resize({ width: 96 }).jpeg({ quality: 90 }).toBuffer();
  writeFileSync(
    join(outputDir, 'small', 'coffee-density-144.jpg'),
    withJpegExif(plain, densityExif({ dotsPerInch: 144, width: 48, height: 32 })),
  );

  // Colour profiles: numbers meant as Display P3 (what phones and macOS screenshots write), and sRGB stated in a
  // profile. Browsers paint both by their profile; only the second may be re-encoded without one.
  const coffee = sharp(join(photosDir, 'coffee.png')).resize({ width: 96 });
  for (const [profile, format] of /** @type {const} */ ([
    ['p3', 'jpg'],
    ['p3', 'png'],
    ['p3', 'webp'],
    ['p3', 'avif'],
    ['srgb', 'jpg'],
    ['srgb', 'png'],
  ])) {
    await coffee
      .clone()
      .withIccProfile(profile)
      .toFormat(format === 'jpg' ? 'jpeg' : format)
      .toFile(join(outputDir, 'small', `coffee-icc-${profile}.${format}`));
  }

  // Graphics (fixtures/graphics: screenshots of text, a chart, a page around a photo) as sites serve them: the PNG
  // itself, and text and the photo again as lossless WebP, the other lossless source the graphics rule judges.
  mkdirSync(join(outputDir, 'graphics'), { recursive: true });
  for (const file of readdirSync(graphicsDir).filter((name) => name.endsWith('.png'))) {
    copyFileSync(join(graphicsDir, file), join(outputDir, 'graphics', file));
  }
  await sharp(join(graphicsDir, 'text.png'))
    .webp({ lossless: true })
    .toFile(join(outputDir, 'graphics', 'text-lossless.webp'));
  await sharp(join(photosDir, 'chelsea.png'))
    .resize({ width: 96 })
    .webp({ lossless: true })
    .toFile(join(outputDir, 'small', 'chelsea-lossless.webp'));

  // Print workflows write CMYK JPEGs, which the codec cannot decode.
  await coffee
    .clone()
    .toColourspace('cmyk')
    .jpeg({ quality: 90 })
    .toFile(join(outputDir, 'broken', 'cmyk.jpg'));

  const jpeg = await sharp(join(photosDir, 'coffee.png')).jpeg({ quality: 90 }).toBuffer();
  writeFileSync(join(outputDir, 'broken', 'truncated.jpg'), jpeg.subarray(0, Math.floor(jpeg.length / 3)));
  // Bytes that pass a magic-number check but nothing else.
  const garbage = Buffer.alloc(4096);
  for (let index = 0; index < garbage.length; index += 1) garbage[index] = (index * 7919 + 13) % 251;
  garbage.set([0xff, 0xd8, 0xff, 0xe0], 0);
  writeFileSync(join(outputDir, 'broken', 'garbage.jpg'), garbage);
  writeFileSync(join(outputDir, 'broken', 'not-an-image.png'), '<!doctype html><title>not an image</title>\n');
  writeFileSync(join(outputDir, 'broken', 'bomb.png'), bombPng());
  const frame = (/** @type {number} */ red) =>
    sharp({ create: { width: 32, height: 32, channels: 3, background: { r: red, g: 80, b: 160 } } })
      .png()
      .toBuffer();
  await sharp([await frame(0), await frame(255)], { join: { animated: true } })
    .gif({ delay: 200, loop: 0 })
    .toFile(join(outputDir, 'broken', 'animated.gif'));
  return `${names.length} photos`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await generate()} -> ${outputDir}\n`);
}
