// `node bench/accuracy/upload-estimators.mjs FILE.json… [--src packages/speedtest/src] [--whole] [--acked FILE]`
// Ad hoc: how four ways of combining parallel upload streams read on the same recorded server reads (a
// `speedkit-direct` run saved with `--samples`, see upload-diag.mjs), against iperf3's truth from the run's JSON:
// - wall: every byte over the whole window;
// - any: the bytes read while at least one stream was busy (between an upload's first and last read, up to a stall),
//   over that time (the union of the streams' busy time);
// - all: the bytes read while every stream was busy, over that time: what the engine's goodput meter measures
//   (`GoodputMeter.addGap` leaves one stream's gap out of all streams' bytes and time);
// - sum: each stream's own bytes over its own busy time, summed over the streams (per-stream gap accounting).
// Over the figure's window (default) or the whole upload phase (`--whole`), also split by how many streams were busy.
// `--acked FILE` adds the wire: lines `epochSeconds localPort bytesAcked` of the client's upload connections, e.g. from
// `ip netns exec PREFIX-cli ss -tin state established '( dport = :8900 )'` polled every 50 ms during the run; the page
// clock is placed on the epoch by the result's `startedAt` (taken at the test's origin).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { bundleEngine } from './engine-bundle.mjs';
import { findRun, placeRecordedUpload, recordedUploads } from './recorded-uploads.mjs';

const { values: args, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    src: { type: 'string' },
    whole: { type: 'boolean', default: false },
    acked: { type: 'string' },
  },
});
const srcDir = resolve(args.src ?? join(repoRoot, 'packages', 'speedtest', 'src'));

const engine = await bundleEngine(srcDir, [
  `export { uploadSpans } from './stats/upload-spans';`,
  `export { stallThresholdMs, pathTiming } from './phases/bandwidth-request';`,
  `export { median } from './stats/summary';`,
]);
const mbitOf = (/** @type {number} */ bytes, /** @type {number} */ ms) => (ms > 0 ? (bytes * 8) / 1000 / ms : NaN);
const fixed = (/** @type {number} */ value) => (Number.isFinite(value) ? value.toFixed(2) : '-');
const bias = (/** @type {number} */ value, /** @type {number} */ truth) =>
  Number.isFinite(value) && Number.isFinite(truth) ? `${((value / truth - 1) * 100).toFixed(1)}%` : '';

for (const file of files) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  if (!raw.diagnostics) {
    console.log(`${file}: no diagnostics (only speedkit-direct runs record them)`);
    continue;
  }
  report(file, raw);
}

/** iperf3's upload truth for the run's profile, from the run's JSON beside its samples directory. */
function truthOf(/** @type {string} */ file) {
  try {
    const run = JSON.parse(readFileSync(`${file.replace(/-samples\/[^/]*$/, '')}.json`, 'utf8'));
    const name = file.split('/').at(-1) ?? '';
    for (const [id, probe] of Object.entries(run.meta.probes)) {
      if (name.startsWith(`${id.replace(/[^0-9a-z.]+/gi, '_')}-`)) return probe.iperfUpMbit;
    }
  } catch {
    // No run JSON: no truth column.
  }
  return NaN;
}

/**
 * Each upload with its resource timing, stream (a stream's next upload starts right after its previous one answered)
 * and placement on the client's clock.
 * @param {any} raw
 * @returns {{ stream: number, placement: any }[]}
 */
function placedUploads(raw) {
  const { idleRttMs, pings, uploads, previousOf } = recordedUploads(raw);
  const streamOf = new Map();
  let streams = 0;
  for (const upload of uploads) {
    const previous = previousOf.get(upload);
    streamOf.set(upload, previous ? streamOf.get(previous) : streams++);
  }
  return uploads.map((/** @type {any} */ upload) => {
    const placement = placeRecordedUpload(engine, upload, pings, idleRttMs);
    return { stream: streamOf.get(upload), placement };
  });
}

/**
 * @param {string} file
 * @param {any} raw
 */
function report(file, raw) {
  const saved = raw.intervals.filter((/** @type {any} */ i) => i.direction === 'upload');
  const { intervalMs } = engine.pathTiming(raw.options, raw.latency.idleMs.value);
  const phaseStartMs = raw.diagnostics.testOriginMs + saved[0].startMs;
  const uploads = placedUploads(raw).filter((u) => u.placement.fromServer);
  /** @type {number[]} */
  const basis = raw.upload.headlineBasisBitsPerSecond;
  /** @type {number[]} */
  const values = saved.map((/** @type {any} */ i) => i.bitsPerSecond);
  const start = findRun(values, basis);
  const fromMs = args.whole || start < 0 ? phaseStartMs : phaseStartMs + start * intervalMs;
  const toMs = args.whole
    ? Math.max(...uploads.map((u) => u.placement.receiveEndMs))
    : phaseStartMs + (start < 0 ? 0 : start + basis.length) * intervalMs;
  // One ms per cell: bytes read per stream, and whether the stream was busy.
  const cells = Math.max(0, Math.ceil(toMs - fromMs));
  const streamCount = Math.max(0, ...uploads.map((u) => u.stream + 1));
  const bytes = Array.from({ length: streamCount }, () => new Float64Array(cells));
  const busy = Array.from({ length: streamCount }, () => new Uint8Array(cells));
  for (const { stream, placement } of uploads) {
    for (const span of placement.spans) spread(bytes[stream], fromMs, span.startMs, span.endMs, span.bytes);
    const busyEndMs = placement.stall ? placement.stall.startMs : placement.receiveEndMs;
    for (let cell = Math.max(0, Math.floor(placement.firstReadMs - fromMs)); cell < cells; cell++) {
      if (fromMs + cell >= busyEndMs) break;
      busy[stream][cell] = 1;
    }
  }
  const present = [...Array(streamCount).keys()].filter((stream) => busy[stream].some((cell) => cell === 1));
  const byBusy = Array.from({ length: present.length + 1 }, () => ({ ms: 0, bytes: 0 }));
  const own = present.map(() => ({ ms: 0, bytes: 0 }));
  let totalBytes = 0;
  for (let cell = 0; cell < cells; cell++) {
    let busyStreams = 0;
    let cellBytes = 0;
    present.forEach((stream, index) => {
      cellBytes += bytes[stream][cell];
      if (busy[stream][cell]) {
        busyStreams++;
        own[index].ms++;
        own[index].bytes += bytes[stream][cell];
      }
    });
    totalBytes += cellBytes;
    byBusy[busyStreams].ms++;
    byBusy[busyStreams].bytes += cellBytes;
  }
  const any = byBusy
    .slice(1)
    .reduce((sum, k) => ({ ms: sum.ms + k.ms, bytes: sum.bytes + k.bytes }), { ms: 0, bytes: 0 });
  const all = byBusy[present.length];
  const estimates = {
    wall: mbitOf(totalBytes, cells),
    any: mbitOf(any.bytes, any.ms),
    all: mbitOf(all.bytes, all.ms),
    sum: own.reduce((sum, stream) => sum + (stream.ms > 0 ? mbitOf(stream.bytes, stream.ms) : 0), 0),
  };
  const truth = truthOf(file);
  console.log(
    `== ${file.split('/').slice(-2).join('/')}: truth ${fixed(truth)}, reported ${fixed(raw.upload.bitsPerSecond.value / 1e6)} (${bias(raw.upload.bitsPerSecond.value / 1e6, truth)}), ${args.whole ? 'whole phase' : 'figure window'} ${cells} ms, ${present.length} streams`,
  );
  console.log(
    `  ${Object.entries(estimates)
      .map(([name, value]) => `${name} ${fixed(value)} (${bias(value, truth)})`)
      .join(', ')}; all-busy ${all.ms} ms, any-busy ${any.ms} ms`,
  );
  console.log(
    `  by busy streams: ${byBusy.map((k, count) => `${count}: ${fixed(mbitOf(k.bytes, k.ms))} over ${k.ms} ms`).join(', ')}`,
  );
  if (args.acked)
    wire(
      raw,
      fromMs,
      cells,
      present.map((stream) => busy[stream]),
      all,
    );
}

/**
 * The wire (client-side bytes acknowledged, all connections) over the window and in its all-busy time.
 * @param {any} raw
 * @param {number} fromMs
 * @param {number} cells
 * @param {Uint8Array[]} busy
 * @param {{ ms: number, bytes: number }} all
 */
function wire(raw, fromMs, cells, busy, all) {
  const epochOfZeroMs = Date.parse(raw.startedAt) - raw.diagnostics.testOriginMs;
  /** @type {Map<string, { atMs: number, bytes: number }[]>} */
  const byPort = new Map();
  for (const line of readFileSync(/** @type {string} */ (args.acked), 'utf8')
    .trim()
    .split('\n')) {
    const [seconds, port, acked] = line.split(' ');
    const series = byPort.get(port) ?? [];
    series.push({ atMs: Number(seconds) * 1000 - epochOfZeroMs, bytes: Number(acked) });
    byPort.set(port, series);
  }
  const wireBytes = new Float64Array(cells);
  for (const series of byPort.values()) {
    series.sort((a, b) => a.atMs - b.atMs);
    for (let index = 1; index < series.length; index++) {
      const [from, to] = [series[index - 1], series[index]];
      if (to.bytes > from.bytes) spread(wireBytes, fromMs, from.atMs, to.atMs, to.bytes - from.bytes);
    }
  }
  let allBusyWire = 0;
  for (let cell = 0; cell < cells; cell++) if (busy.every((stream) => stream[cell])) allBusyWire += wireBytes[cell];
  const windowWire = wireBytes.reduce((sum, cell) => sum + cell, 0);
  console.log(
    `  wire: ${fixed(mbitOf(windowWire, cells))} over the window, ${fixed(mbitOf(allBusyWire, all.ms))} in the all-busy time (reads there ${fixed(mbitOf(all.bytes, all.ms))})`,
  );
}

/**
 * Adds `bytes` spread evenly over [startMs, endMs] to 1-ms cells from `fromMs` (a zero-length span to its cell).
 * @param {Float64Array} cells
 * @param {number} fromMs
 * @param {number} startMs
 * @param {number} endMs
 * @param {number} bytes
 */
function spread(cells, fromMs, startMs, endMs, bytes) {
  const spanMs = endMs - startMs;
  if (!(spanMs > 0)) {
    const cell = Math.floor(endMs - fromMs);
    if (cell >= 0 && cell < cells.length) cells[cell] += bytes;
    return;
  }
  const last = Math.min(cells.length, Math.ceil(endMs - fromMs));
  for (let cell = Math.max(0, Math.floor(startMs - fromMs)); cell < last; cell++) {
    const overlapMs = Math.min(endMs, fromMs + cell + 1) - Math.max(startMs, fromMs + cell);
    if (overlapMs > 0) cells[cell] += (bytes * overlapMs) / spanMs;
  }
}
