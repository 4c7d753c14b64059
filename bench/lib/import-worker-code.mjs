// Imports TypeScript modules of the Worker into Node by bundling them with esbuild (platform neutral, as workerd runs
// them), so benchmarks and fuzzers exercise exactly the code the Worker runs rather than a copy.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles `exportLines` (e.g. `"export { scanImage } from './scanner';"`) resolved from `resolveDir` into one ESM
 * module in a temporary folder and imports it.
 * @param {string[]} exportLines
 * @param {string} resolveDir the folder the relative paths in `exportLines` start from
 * @returns {Promise<any>} the module namespace
 */
export async function importWorkerCode(exportLines, resolveDir) {
  const dir = mkdtempSync(join(tmpdir(), 'speedkit-worker-code-'));
  const outfile = join(dir, 'bundle.mjs');
  try {
    await build({
      stdin: { contents: exportLines.join('\n'), resolveDir, loader: 'ts' },
      bundle: true,
      format: 'esm',
      platform: 'neutral',
      outfile,
      logLevel: 'error',
    });
    return await import(pathToFileURL(outfile).href);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
