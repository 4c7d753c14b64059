// Builds everything `wrangler dev` and the tests need: the Rust crate to Wasm, the Worker's Env types and the SPA.
// Each step is skipped when its inputs have not changed, so a second `npm start` is quick.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { mustExec } from './lib/exec.mjs';
import { step } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';

const env = toolEnv();

/**
 * Hash of every file under the given paths (directories recursively, skipping build output).
 * @param {string[]} inputs paths relative to the repository root
 */
function digestOf(inputs) {
  const hash = createHash('sha256');
  const visit = (/** @type {string} */ full) => {
    if (!existsSync(full)) return;
    if (statSync(full).isDirectory()) {
      for (const name of readdirSync(full).sort()) {
        if (['node_modules', 'target', 'pkg', 'dist', '.wrangler'].includes(name)) continue;
        visit(join(full, name));
      }
      return;
    }
    hash.update(relative(repoRoot, full));
    hash.update(readFileSync(full));
  };
  for (const input of inputs) visit(join(repoRoot, input));
  return hash.digest('hex');
}

/**
 * Runs `build` unless the digest of `inputs` equals the one recorded after the last successful run
 * and `output` exists.
 * @param {string} name
 * @param {string[]} inputs
 * @param {string} output path that must exist for the cache to count
 * @param {() => Promise<unknown>} build
 */
async function cachedStep(name, inputs, output, build) {
  await step(name, async () => {
    const stamp = join(repoRoot, output, '.speedkit-build');
    const digest = digestOf(inputs);
    if (existsSync(stamp) && readFileSync(stamp, 'utf8') === digest) return 'unchanged';
    await build();
    writeFileSync(stamp, digest);
    return 'built';
  });
}

/** Every build step in dependency order. Capabilities add theirs here. */
export async function build() {
  await cachedStep(
    'Wasm: @speedkit/binast in wasm/binast (cargo + wasm-bindgen --target web + wasm-opt)',
    [
      'wasm/binast/src',
      'wasm/binast/js/decode.js',
      'wasm/binast/js/decode.d.ts',
      'wasm/binast/Cargo.toml',
      'wasm/binast/build.rs',
      'wasm/binast/build.mjs',
      'Cargo.lock',
    ],
    'wasm/binast/pkg',
    () => mustExec('npm', ['run', 'build', '-w', 'wasm/binast'], { cwd: repoRoot, env, quiet: true }),
  );
  // The link emulator of the shaped-link benches (bench/lib); cargo's own fingerprints make an unchanged build quick.
  await step('Link emulator: tools/link-emulator (cargo build --release)', async () => {
    await mustExec('cargo', ['build', '--release', '-p', 'link-emulator'], { cwd: repoRoot, env, quiet: true });
    return 'target/release/link-emulator';
  });
  // The embeddable loader and its decoder copy (from wasm/binast/pkg), before the SPA, which copies it from public/.
  await cachedStep(
    'Loader: packages/binast-loader (esbuild IIFE + ESM, gzip budget)',
    ['packages/binast-loader/src', 'packages/binast-loader/build.mjs', 'wasm/binast/pkg'],
    'apps/speedtest/public/demo/loader',
    () => mustExec('node', ['packages/binast-loader/build.mjs'], { cwd: repoRoot, env }),
  );
  // The path the README's embedding snippet documents (`<script src="/binast/binast-loader.min.js">`): the loader's
  // whole dist, decoder beside it, as a site serving its own copy would have it. Before the SPA, which copies public/.
  await step('Loader: published at /binast/ (apps/speedtest/public/binast)', () => {
    const published = join(repoRoot, 'apps/speedtest/public/binast');
    rmSync(published, { recursive: true, force: true });
    cpSync(join(repoRoot, 'packages/binast-loader/dist'), published, { recursive: true });
    return `${readdirSync(published).length} files`;
  });
  await step('Worker Env types (wrangler types)', async () => {
    await mustExec('wrangler', ['types', 'workers/worker-configuration.d.ts'], { cwd: repoRoot, env, quiet: true });
    return 'generated';
  });
  // Before the SPA: vite copies apps/speedtest/public (with the generated demo images) into dist.
  await cachedStep(
    'Images: demo + test fixtures (sharp, from fixtures/images and fixtures/graphics)',
    ['scripts/images-fixtures.mjs', 'fixtures/images', 'fixtures/graphics'],
    'apps/speedtest/public/demo/images',
    async () => (await import('./images-fixtures.mjs')).generate(),
  );
  // Priority: progressive JPEGs for the demo page (before the SPA, which copies them) and the parser's fixtures.
  for (const [mode, output] of [
    ['demo', 'apps/speedtest/public/demo/priority'],
    ['fixtures', 'workers/test/priority/fixtures'],
  ]) {
    await cachedStep(
      `Priority: ${mode} images (sharp + libjpeg-turbo, from fixtures/images)`,
      ['bench/priority/make-images.mjs', 'fixtures/images'],
      output,
      () => mustExec('node', ['bench/priority/make-images.mjs', mode], { cwd: repoRoot, env, quiet: true }),
    );
  }
  // BinaryAST demo: real library scripts from node_modules, served through the Worker (before the SPA copies them).
  await cachedStep(
    'BinaryAST: demo scripts (from node_modules)',
    ['packages/binast-cli/src/corpus.mjs', 'packages/binast-cli/src/copy-demo-scripts.mjs'],
    'apps/speedtest/public/demo/scripts',
    () => mustExec('node', ['packages/binast-cli/src/copy-demo-scripts.mjs'], { cwd: repoRoot, env, quiet: true }),
  );
  await cachedStep(
    'SPA: apps/speedtest (vite build)',
    ['apps/speedtest', 'packages/speedtest/src'],
    'apps/speedtest/dist',
    () => mustExec('npm', ['run', 'build', '-w', 'apps/speedtest'], { cwd: repoRoot, env, quiet: true }),
  );
}
