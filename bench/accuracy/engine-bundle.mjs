// The speed-test engine's pure parts, bundled with esbuild from a source directory (this tree's or a baseline copy's)
// and imported from a data URL: what the replay tools (upload-diag.mjs, upload-estimators.mjs) run recorded reads
// through, so two engine versions can be compared on the same bytes.
import * as esbuild from 'esbuild';

/**
 * @param {string} srcDir the engine's `src` directory
 * @param {string[]} exportLines `export { … } from './…';` lines relative to it
 * @returns {Promise<any>} the module
 */
export async function bundleEngine(srcDir, exportLines) {
  const bundle = await esbuild.build({
    stdin: { contents: exportLines.join('\n'), resolveDir: srcDir, loader: 'ts' },
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    write: false,
    // Another copy's tsconfig may extend a file that is not there (a `git archive` of one package).
    tsconfigRaw: '{}',
  });
  const code = Buffer.from(bundle.outputFiles[0].contents).toString('base64');
  return import(`data:text/javascript;base64,${code}`);
}
