// Builds the loader: a minified classic-script IIFE (what sites embed) and an ESM build (for bundlers), copies the
// decoder (the decode-only Web build of wasm/binast) beside them, prints the gzip size against the 2 KB budget and copies the
// result to where the demo pages load it. Run by scripts/build.mjs as a cached step, or `npm run build -w …`.
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const decoderPkg = fileURLToPath(new URL('.', import.meta.resolve('@speedkit/binast/decode')));
const demoOut = join(here, '../../apps/speedtest/public/demo/loader');
/** Gzip budget of the classic build: it is on every page's critical path, the decoder is not. */
export const budgetGzipBytes = 2048;

rmSync(dist, { recursive: true, force: true });
// Sloppy-mode output drops esbuild's "use strict" prologue: nothing in the loader depends on strict semantics.
/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  target: 'es2022',
  logLevel: 'warning',
  legalComments: 'none',
  tsconfigRaw: { compilerOptions: { alwaysStrict: false } },
};
await build({
  ...common,
  entryPoints: [join(here, 'src/auto.ts')],
  format: 'iife',
  minify: true,
  outfile: join(dist, 'binast-loader.min.js'),
});
await build({
  ...common,
  entryPoints: [join(here, 'src/index.ts')],
  format: 'esm',
  outfile: join(dist, 'binast-loader.mjs'),
});

// The decoder: `binast.js` (what the loader imports) decodes in a Web Worker (`binast-worker.js`), both running the
// decode-only build's glue, copied as `binast-wasm.js`; the glue finds `binast_bg.wasm` beside itself. Beside them,
// `binast-remember.js`, which the loader imports once the page has loaded (src/remember.ts).
const decoderFiles = ['binast.js', 'binast-worker.js', 'binast-wasm.js', 'binast_bg.wasm', 'binast-remember.js'];
for (const [entry, out] of [
  ['off-thread/client.ts', 'binast.js'],
  ['off-thread/worker.ts', 'binast-worker.js'],
  ['remember.ts', 'binast-remember.js'],
]) {
  await build({
    ...common,
    entryPoints: [join(here, 'src', entry)],
    format: 'esm',
    minify: true,
    external: ['./binast-wasm.js'],
    outfile: join(dist, out),
  });
}
// The decode-only module's JavaScript interface (wasm/binast/js/decode.js), minified like the rest of the decoder.
await build({
  ...common,
  entryPoints: [join(decoderPkg, 'binast.js')],
  bundle: false,
  format: 'esm',
  minify: true,
  outfile: join(dist, 'binast-wasm.js'),
});
copyFileSync(join(decoderPkg, 'binast_bg.wasm'), join(dist, 'binast_bg.wasm'));
const gzipOf = (/** @type {string} */ name) => gzipSync(readFileSync(join(dist, name)), { level: 9 }).length;

const minified = readFileSync(join(dist, 'binast-loader.min.js'));
const sizes = {
  rawBytes: minified.length,
  gzipBytes: gzipSync(minified, { level: 9 }).length,
  brotliBytes: brotliCompressSync(minified).length,
  budgetGzipBytes,
  decoderWasmBytes: existsSync(join(dist, 'binast_bg.wasm')) ? readFileSync(join(dist, 'binast_bg.wasm')).length : 0,
  /** What a page downloads to decode: the module and its JavaScript interface, gzip -9 (issue #17: ≤ 40,960 B). */
  decoderGzipBytes: gzipOf('binast_bg.wasm') + gzipOf('binast-wasm.js'),
};
writeFileSync(join(dist, 'sizes.json'), `${JSON.stringify(sizes, null, 2)}\n`);
const verdict = sizes.gzipBytes <= budgetGzipBytes ? 'within' : 'OVER';
process.stdout.write(
  `binast-loader.min.js: ${sizes.rawBytes} B raw, ${sizes.gzipBytes} B gzip, ${sizes.brotliBytes} B brotli (${verdict} the ${budgetGzipBytes} B gzip budget); decoder wasm ${sizes.decoderWasmBytes} B, ` +
    `${sizes.decoderGzipBytes} B gzip with its interface\n`,
);

rmSync(demoOut, { recursive: true, force: true });
mkdirSync(join(demoOut, 'lib'), { recursive: true });
for (const name of ['binast-loader.min.js', 'binast-loader.mjs', ...decoderFiles]) {
  if (existsSync(join(dist, name))) copyFileSync(join(dist, name), join(demoOut, name));
}
await buildDemoLibraries(join(demoOut, 'lib'));

/**
 * The real libraries the demo pages load, as classic scripts with globals (what sites without a bundler embed):
 * React 19 ships no UMD build any more, so React and ReactDOM are bundled here from their production CommonJS builds;
 * d3 and lodash ship minified UMD files that are copied as they are.
 * @param {string} out
 */
async function buildDemoLibraries(out) {
  const nodeModules = join(here, '../../node_modules');
  /** @type {import('esbuild').Plugin} */
  const reactFromGlobal = {
    name: 'react-from-global',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /^react$/ }, () => ({ path: 'react', namespace: 'global' }));
      pluginBuild.onLoad({ filter: /.*/, namespace: 'global' }, () => ({ contents: 'module.exports = React' }));
    },
  };
  /** @type {import('esbuild').BuildOptions} */
  const library = {
    ...common,
    minify: true,
    format: 'iife',
    define: { 'process.env.NODE_ENV': '"production"' },
    nodePaths: [nodeModules],
  };
  await build({
    ...library,
    stdin: { contents: "module.exports = require('react')", resolveDir: nodeModules },
    globalName: 'React',
    outfile: join(out, 'react.js'),
  });
  await build({
    ...library,
    stdin: {
      contents: "export { createRoot } from 'react-dom/client'; export { flushSync, version } from 'react-dom';",
      resolveDir: nodeModules,
    },
    globalName: 'ReactDOM',
    plugins: [reactFromGlobal],
    outfile: join(out, 'react-dom.js'),
  });
  copyFileSync(join(nodeModules, 'd3/dist/d3.min.js'), join(out, 'd3.js'));
  copyFileSync(join(nodeModules, 'lodash/lodash.min.js'), join(out, 'lodash.js'));
}
