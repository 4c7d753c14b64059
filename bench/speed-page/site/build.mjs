// Builds the demo article site into site/dist (generated, not committed): the page, its CSS and scripts, two real
// libraries copied from node_modules, and the photos derived from fixtures/images with sharp in the sizes and
// formats a typical article ships (a big hero JPEG, inline JPEGs and PNGs of several sizes).
//   node bench/speed-page/site/build.mjs
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { photosDir, repoRoot } from '../../../scripts/lib/tools.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const siteDist = join(here, 'dist');

/**
 * Every photo of the page: source fixture, output name, width (px), format. Several sizes on purpose: the hero is
 * the LCP element, the PNGs are what a CMS often leaves uncompressed.
 */
export const photos = [
  { source: 'hubble_deep_field.jpg', name: 'hero.jpg', widthPx: 1600, format: 'jpeg', progressive: true },
  { source: 'chelsea.png', name: 'cat.jpg', widthPx: 900, format: 'jpeg', progressive: false },
  { source: 'coffee.png', name: 'coffee.png', widthPx: 600, format: 'png' },
  { source: 'astronaut.png', name: 'astronaut.jpg', widthPx: 800, format: 'jpeg', progressive: true },
  { source: 'brick.png', name: 'brick.png', widthPx: 400, format: 'png' },
  { source: 'grass.png', name: 'grass.jpg', widthPx: 700, format: 'jpeg', progressive: false },
  { source: 'gravel.png', name: 'gravel.jpg', widthPx: 500, format: 'jpeg', progressive: true },
  { source: 'coffee.png', name: 'coffee-wide.jpg', widthPx: 1200, format: 'jpeg', progressive: false },
];

/** Libraries the page loads, as shipped in their npm packages. */
const libraries = [
  { from: 'node_modules/lodash/lodash.min.js', name: 'lodash.min.js' },
  { from: 'node_modules/d3/dist/d3.min.js', name: 'd3.min.js' },
];

export async function buildSite() {
  rmSync(siteDist, { recursive: true, force: true });
  for (const dir of ['img', 'js', 'css']) mkdirSync(join(siteDist, dir), { recursive: true });
  for (const photo of photos) {
    let pipeline = sharp(join(photosDir, photo.source)).resize({ width: photo.widthPx });
    pipeline =
      photo.format === 'png'
        ? pipeline.png({ compressionLevel: 6 })
        : pipeline.jpeg({ quality: 82, progressive: photo.progressive, mozjpeg: false });
    await pipeline.toFile(join(siteDist, 'img', photo.name));
  }
  for (const library of libraries) copyFileSync(join(repoRoot, library.from), join(siteDist, 'js', library.name));
  for (const file of ['index.html', 'css/site.css', 'css/article.css', 'js/app.js']) {
    mkdirSync(dirname(join(siteDist, file)), { recursive: true });
    writeFileSync(join(siteDist, file), readFileSync(join(here, 'src', file)));
  }
  return siteDist;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildSite();
  process.stdout.write(`demo site built into ${siteDist}\n`);
}
