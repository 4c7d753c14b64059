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

/**
 * A recorded upload (speedkit-direct's diagnostics) placed in time by the bundled engine's `uploadSpans`, with the
 * stall threshold the engine had when it finished: from the loaded pings that had ended by then.
 * @param {any} engine a bundle exporting uploadSpans, stallThresholdMs and median
 * @param {any} upload one recorded upload: its timing and the server's receipt
 * @param {{ endMs: number, pingMs: number }[]} pings loaded pings of the phase
 * @param {number} idleRttMs
 * @param {boolean} [stalls] false: no stall is left out (what the figure would be if holes in the reads stayed in)
 */
export function placeRecordedUpload(engine, upload, pings, idleRttMs, stalls = true) {
  const loaded = pings.filter((p) => p.endMs <= upload.timing.responseEnd).map((p) => p.pingMs);
  return engine.uploadSpans({
    requestStartMs: upload.timing.requestStart,
    responseStartMs: upload.timing.responseStart,
    idleRttMs,
    bytes: upload.receipt.receivedBytes,
    receiveTimeline: upload.receipt.receiveTimeline,
    serverEndMs: upload.receipt.receiveDurationMs,
    stallMs: stalls
      ? engine.stallThresholdMs(idleRttMs, loaded.length > 0 ? engine.median(loaded) : Number.NaN)
      : undefined,
  });
}
