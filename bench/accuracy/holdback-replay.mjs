// `node bench/accuracy/holdback-replay.mjs DIR-or-FILE… [--direction download|upload] [--profiles] [--src DIR]`
// Ad hoc: how the recorded figures of saved `--samples` runs would read with the engine's hold-back correction
// (packages/speedtest/src/stats/hold-back.ts, bundled from `--src`, default this tree's engine), given the loss each
// profile was configured with (the engine itself only has the loss its loss phase measured). The correction puts back
// what losses held back as the loaded round trip grew across the figure's window: TCP hands a stream's bytes over in
// order, so everything behind a lost segment waits about one loaded round trip for its retransmission. Runs recorded
// by an engine that already corrected (`holdBack` in the saved result) are left out: they would be corrected twice.
// Prints, per profile, how many figures are within 1.5 % of the run's truth as recorded and as corrected.
// Since 410064d the engine corrects uploads over WebSockets only (`holdBackApplies`), so with this tree's engine the
// downloads replay as recorded; `--src` with an older copy replays them as it corrected them.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { alignedTable } from '../binast/aligned-table.mjs';
import { bundleEngine } from './engine-bundle.mjs';
import { recordedRows, sampleFiles } from './recorded-runs.mjs';
import { findRun } from './recorded-uploads.mjs';
import { median } from './stats.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    direction: { type: 'string', default: 'download' },
    profiles: { type: 'boolean', default: false },
    src: { type: 'string' },
  },
});
const direction = args.direction === 'upload' ? 'upload' : 'download';
const engine = await bundleEngine(resolve(args.src ?? join(repoRoot, 'packages', 'speedtest', 'src')), [
  `export { holdBackApplies, holdBackFactor, windowRoundTrips } from './stats/hold-back';`,
]);

const files = sampleFiles(positionals);

/** @type {{ profile: string, lossy: boolean, recorded: number, model: number }[]} errors in percent of the truth */
const rows = [];
for (const file of files) {
  const run = recordedRows(file);
  const truth = run?.rows.find((row) => row.metric === direction && Number.isFinite(row.truth))?.truth;
  if (!run?.profile || !truth) continue;
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  if (raw[direction]?.holdBack) continue;
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
 * The recorded figure times the engine's hold-back factor for its window, with the loaded pings the run recorded;
 * null when the window cannot be found in the recording.
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
  if (!engine.holdBackApplies(direction, phase)) return phase.bitsPerSecond.value;
  const intervalMs = intervals[start].durationMs ?? raw.options.intervalMs;
  const window = {
    startMs: intervals[start].startMs,
    endMs: intervals[start + basis.length - 1].startMs + intervalMs,
  };
  const pings = raw.samples.filter((/** @type {any} */ s) => s.kind === 'latency' && s.load === direction);
  const bps = phase.bitsPerSecond.value;
  const factor = engine.holdBackFactor({
    bitsPerSecond: bps,
    streams: phase.streams,
    lossRate: loss,
    windowMs: window.endMs - window.startMs,
    ...engine.windowRoundTrips(pings, window),
  });
  return bps * factor;
}

/** @param {number} percent */
function signed(percent) {
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
}
