// A `speedkit-direct` run saved with `--samples` (its `diagnostics`: every upload's resource timing and the server's
// reads), read back for the replay tools upload-diag.mjs and upload-estimators.mjs.

/**
 * The run's uploads that the server reported reads for, oldest first, each with its resource timing; the loaded
 * pings of the upload phase (ending on the page clock); and each upload's previous one on the same stream: a
 * stream's next upload starts right after its previous one answered (within 100 ms).
 * @param {any} raw the saved result
 */
export function recordedUploads(raw) {
  const diag = raw.diagnostics;
  const origin = diag.testOriginMs;
  /** @type {{ endMs: number, pingMs: number }[]} */
  const pings = raw.samples
    .filter((/** @type {any} */ s) => s.kind === 'latency' && s.load === 'upload')
    .map((/** @type {any} */ s) => ({ endMs: origin + s.startMs + s.pingMs, pingMs: s.pingMs }));
  const timingOf = new Map(diag.timings.map((/** @type {any} */ t) => [t.url, t]));
  /** @type {any[]} */
  const uploads = diag.uploads
    .map((/** @type {any} */ u) => ({ ...u, timing: timingOf.get(u.url) }))
    .filter((/** @type {any} */ u) => u.timing && u.receipt && Array.isArray(u.receipt.receiveTimeline))
    .sort((/** @type {any} */ a, /** @type {any} */ b) => a.startedMs - b.startedMs);
  /** @type {Map<any, any>} */
  const previousOf = new Map();
  const taken = new Set();
  for (const upload of uploads) {
    const previous = uploads
      .filter(
        (p) =>
          !taken.has(p) && p.timing.responseEnd <= upload.startedMs && upload.startedMs - p.timing.responseEnd < 100,
      )
      .sort((a, b) => b.timing.responseEnd - a.timing.responseEnd)[0];
    if (previous) {
      taken.add(previous);
      previousOf.set(upload, previous);
    }
  }
  return { idleRttMs: raw.latency.idleMs.value, pings, uploads, previousOf };
}

/** Where `run` starts in `values` (the same numbers in a row), or -1. @param {number[]} values @param {number[]} run */
export function findRun(values, run) {
  for (let start = 0; start + run.length <= values.length; start++) {
    if (run.every((value, offset) => values[start + offset] === value)) return start;
  }
  return -1;
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
