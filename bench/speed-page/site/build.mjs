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
 * Every photo of the page: source fixture, output name, width (px), height (px, only for a crop), format. Several
 * sizes on purpose: the hero is the LCP element; the lead strip is six progressive photos that sit in the first
 * viewport with it, as on a photo-essay or news page (the priority feature's previews matter only when several
 * progressive images are in view at once); the PNGs are what a CMS often leaves uncompressed.
 * @type {{ source: string, name: string, widthPx: number, heightPx?: number, format: string,
 *   progressive?: boolean }[]}
 */
export const photos = [
  { source: 'hubble_deep_field.jpg', name: 'hero.jpg', widthPx: 1600, format: 'jpeg', progressive: true },
  ...[
    ['astronaut.png', 'strip-astronaut.jpg'],
    ['chelsea.png', 'strip-cat.jpg'],
    ['coffee.png', 'strip-coffee.jpg'],
    ['grass.png', 'strip-grass.jpg'],
    ['gravel.png', 'strip-gravel.jpg'],
    ['brick.png', 'strip-brick.jpg'],
  ].map(([source, name]) => ({
    source,
    name,
    widthPx: 480,
    heightPx: 320,
    format: 'jpeg',
    progressive: true,
  })),
  { source: 'chelsea.png', name: 'cat.jpg', widthPx: 900, format: 'jpeg', progressive: false },
  { source: 'coffee.png', name: 'coffee.png', widthPx: 600, format: 'png' },
  { source: 'brick.png', name: 'brick.png', widthPx: 400, format: 'png' },
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
    let pipeline = sharp(join(photosDir, photo.source)).resize({ width: photo.widthPx, height: photo.heightPx });
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
