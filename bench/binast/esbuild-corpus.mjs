// A third corpus for the context layout's size goal, made on the spot: npm packages this repository installs for
// other reasons (none is in either corpus of packages/binast-cli/src/corpus.mjs, and none was looked at while the
// models were tuned before 2026-11-27), each bundled and minified by esbuild, whose output differs from the
// minifiers the two corpora were built with (it keeps classes, arrow functions and template literals). Packages that
// are not installed are skipped and named. Writes `<name>.js` files to the folder given, for
//   node bench/binast/esbuild-corpus.mjs <dir> && SIZES_EXTRA=<dir> node bench/binast/sizes.mjs
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';

/** [package, entry file inside it]: libraries of 10 KB or more once minified, that bundle without Node built-ins. */
const entries = [
  ['@babel/parser', 'lib/index.js'],
  ['acorn', 'dist/acorn.js'],
  ['d3-delaunay', 'dist/d3-delaunay.js'],
  ['es-module-lexer', 'dist/lexer.js'],
  ['fast-check', 'lib/fast-check.js'],
  ['json5', 'dist/index.js'],
  ['neo-async', 'async.js'],
  ['picomatch', 'index.js'],
  ['robust-predicates', 'umd/predicates.js'],
  ['semver', 'index.js'],
  ['source-map', 'dist/source-map.js'],
  ['tslib', 'tslib.js'],
  ['zod', 'index.js'],
];

/**
 * Nine more, held out: compared once between format 4 and format 5 after format 5's parameters were fixed
 * (workers/src/binast/README.md, "Format 5"). `--held-out` writes these instead.
 */
const heldOut = [
  ['chai', 'index.js'],
  ['entities', 'dist/esm/index.js'],
  ['jpeg-js', 'index.js'],
  ['@jridgewell/gen-mapping', 'dist/gen-mapping.mjs'],
  ['@jridgewell/trace-mapping', 'dist/trace-mapping.mjs'],
  ['@kurkle/color', 'dist/color.esm.js'],
  ['magic-string', 'dist/index.mjs'],
  ['source-map-js', 'source-map.js'],
  ['tinybench', 'dist/index.js'],
];

const args = process.argv.slice(2);
const out = args.find((arg) => !arg.startsWith('--'));
if (!out) throw new Error('usage: node bench/binast/esbuild-corpus.mjs [--held-out] <output folder>');
const held = args.includes('--held-out');
const chosen = held ? heldOut : entries;
mkdirSync(out, { recursive: true });
// The workspace's top-level node_modules (a package's `exports` may hide its package.json from `require.resolve`).
const modules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
for (const [name, entry] of chosen) {
  const root = join(modules, name);
  if (!existsSync(join(root, 'package.json'))) {
    process.stdout.write(`${name}: not installed, skipped\n`);
    continue;
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const result = buildSync({
    entryPoints: [join(root, entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    globalName: 'library',
    platform: 'neutral',
    // As the sets were first built: the held-out one preferring modules and with production builds.
    mainFields: held ? ['module', 'main'] : ['main', 'module'],
    define: held ? { 'process.env.NODE_ENV': '"production"' } : {},
    write: false,
    logLevel: 'silent',
  });
  const code = result.outputFiles?.[0]?.contents ?? new Uint8Array();
  const file = `${name.replace(/[@/]/g, '_').replace(/^_/, '')}-${version}.js`;
  writeFileSync(join(out, file), code);
  process.stdout.write(`${name} ${version}: ${code.length} B → ${file}\n`);
}
