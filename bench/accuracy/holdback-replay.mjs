// `node bench/accuracy/holdback-replay.mjs DIR-or-FILE… [--direction download|upload] [--profiles]`
// Ad hoc: how the recorded figures of saved `--samples` runs would read if the figure counted the change, across its
// window, of what a loss holds back. TCP hands a stream's bytes over in order, so everything behind a lost segment
// waits until its retransmission lands, about one loaded round trip R later. With a per-stream loss rate of λ
// segments/s and holds of R, a stream holds back on average r_s·R·g(x), x = λR, g(x) = 1 − (1 − e^−x)/x (the mean
// time since the earliest unrepaired loss among those of the last R). A window whose loaded round trip rises from R0
// to R1 (a second stream's queue) thus reads r·(1 − (g1·R1 − g0·R0)/T) of a link it had full; the model divides that
// back out. λ comes from the profile's configured loss (the engine could only know it from its own loss test), with a
// 1448-byte segment; R from the loaded pings around each end of the window. Prints, per profile, how many figures are
// within 1.5 % of the run's truth as recorded and as the model would read them.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { alignedTable } from '../binast/aligned-table.mjs';
import { recordedRows } from './recorded-runs.mjs';
import { findRun } from './recorded-uploads.mjs';
import { median } from './stats.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    direction: { type: 'string', default: 'download' },
    profiles: { type: 'boolean', default: false },
  },
});
const direction = args.direction === 'upload' ? 'upload' : 'download';
const segmentBytes = 1448;

const files = positionals.flatMap((path) =>
  statSync(path).isDirectory()
    ? readdirSync(path)
        .filter((name) => name.endsWith('.json'))
        .map((name) => join(path, name))
    : [path],
);

/** @type {{ profile: string, lossy: boolean, recorded: number, model: number }[]} errors in percent of the truth */
const rows = [];
for (const file of files) {
  const run = recordedRows(file);
  const truth = run?.rows.find((row) => row.metric === direction && Number.isFinite(row.truth))?.truth;
  if (!run?.profile || !truth) continue;
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const modelled = holdBackModel(raw, run.profile.lossPercent / 100);
  if (!modelled) continue;
  const error = (/** @type {number} */ bps) => (100 * (bps - truth)) / truth;
  rows.push({
    profile: run.profile.id,
    lossy: run.profile.lossPercent > 0,
    recorded: error(raw[direction].bitsPerSecond.value),
    model: error(modelled),
  });
}

/** @param {typeof rows} group @param {string} name */
const summary = (group, name) => ({
  group: name,
  figures: group.length,
  'within 1.5 % recorded': group.filter((row) => Math.abs(row.recorded) <= 1.5).length,
  'within 1.5 % model': group.filter((row) => Math.abs(row.model) <= 1.5).length,
  'median error recorded': signed(median(group.map((row) => row.recorded))),
  'median error model': signed(median(group.map((row) => row.model))),
  'median |error| recorded': median(group.map((row) => Math.abs(row.recorded))).toFixed(2),
  'median |error| model': median(group.map((row) => Math.abs(row.model))).toFixed(2),
});
const groups = [
  summary(
    rows.filter((row) => row.lossy),
    'lossy profiles',
  ),
  summary(
    rows.filter((row) => !row.lossy),
    'lossless profiles',
  ),
];
if (args.profiles) {
  for (const profile of [...new Set(rows.map((row) => row.profile))].sort()) {
    groups.push(
      summary(
        rows.filter((row) => row.profile === profile),
        profile,
      ),
    );
  }
}
console.log(`${direction}: the recorded figure against the hold-back model (configured loss), each against its truth`);
const shown = groups.filter((group) => group.figures > 0);
console.log(alignedTable([Object.keys(shown[0] ?? {}), ...shown.map((group) => Object.values(group))]));

/**
 * The figure with the change of the held-back bytes across its window divided out, or null when the window or its
 * round trips cannot be found in the recording.
 * @param {any} raw the saved run
 * @param {number} loss configured loss rate (0–1)
 */
function holdBackModel(raw, loss) {
  const phase = raw[direction];
  const intervals = (raw.intervals ?? []).filter((/** @type {any} */ i) => i.direction === direction);
  const basis = phase?.headlineBasisBitsPerSecond ?? [];
  const start = findRun(
    intervals.map((/** @type {any} */ i) => i.bitsPerSecond),
    basis,
  );
  if (!phase || basis.length < 3 || start < 0) return null;
  const intervalMs = intervals[start].durationMs ?? raw.options.intervalMs;
  const startMs = intervals[start].startMs;
  const endMs = intervals[start + basis.length - 1].startMs + intervalMs;
  /** @type {{ startMs: number, pingMs: number }[]} */
  const pings = raw.samples.filter(
    (/** @type {any} */ s) => s.kind === 'latency' && s.load === direction && Number.isFinite(s.pingMs),
  );
  /** Median loaded round trip (ms) of the pings sent within [fromMs, toMs], or NaN. */
  const roundTrip = (/** @type {number} */ fromMs, /** @type {number} */ toMs) =>
    median(pings.filter((p) => p.startMs >= fromMs && p.startMs <= toMs).map((p) => p.pingMs));
  const startRttMs = roundTrip(startMs - 400, startMs + 400);
  const endRttMs = roundTrip(endMs - 800, endMs);
  if (!Number.isFinite(startRttMs) || !Number.isFinite(endRttMs)) return null;
  const bps = phase.bitsPerSecond.value;
  const segmentsPerSecondPerStream = bps / phase.streams / 8 / segmentBytes;
  /** Mean held-back time (ms of the link's rate) at a loaded round trip of `rttMs`: R·g(λR). */
  const heldMs = (/** @type {number} */ rttMs) => {
    const x = loss * segmentsPerSecondPerStream * (rttMs / 1000);
    return x > 0 ? rttMs * (1 - (1 - Math.exp(-x)) / x) : 0;
  };
  const windowMs = endMs - startMs;
  return (bps * windowMs) / (windowMs - (heldMs(endRttMs) - heldMs(startRttMs)));
}

/** @param {number} percent */
function signed(percent) {
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
}
