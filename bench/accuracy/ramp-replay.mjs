// `node bench/accuracy/ramp-replay.mjs DIR-or-FILE… [--base path/to/src] [--src path/to/src] [--all]`
// Replays the ramp and the figure of every bandwidth phase in saved `--samples` runs (bench/results/accuracy/
// <name>-samples/*.json) with two engine versions, bundled from their `src` directories (default: `--src` this
// worktree's engine, `--base` the same), and prints the phases whose figure the two read differently, each against
// the run's truth (the run's <name>.json beside its samples directory), then the error of both over every phase.
// Downloads replay exactly: their intervals are final when the ramp reads them, and no idle gap weighs them. Uploads
// are approximate: the ramp read intervals that were still filling, and their busy-time weights are not recorded, so
// a phase whose replayed decisions do not fall where the recorded stream changes did is counted and left out.
// Ad hoc (not part of the bench's run): how a change to `decideRamp` or `summarizeBandwidth` would have read the
// recorded runs, before an A/B on the live link.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { bundleEngine } from './engine-bundle.mjs';
import { sampleFiles, truthFor } from './recorded-runs.mjs';

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    src: { type: 'string' },
    base: { type: 'string' },
    // Print every phase, not only those the two versions read differently.
    all: { type: 'boolean', default: false },
  },
});
const exportLines = [
  `export { decideRamp, pastDecision } from './stats/ramp';`,
  `export { summarizeBandwidth } from './phases/bandwidth-summary';`,
  `export { mean } from './stats/summary';`,
];
const ownSrc = join(repoRoot, 'packages', 'speedtest', 'src');
const engines = {
  base: await bundleEngine(resolve(args.base ?? ownSrc), exportLines),
  src: await bundleEngine(resolve(args.src ?? ownSrc), exportLines),
};

const files = sampleFiles(positionals);

/** @type {{ direction: string, base: number, src: number }[]} errors in percent of the truth */
const errors = [];
let mismatched = 0;
let withoutTruth = 0;
for (const file of files) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const truthOf = truthFor(file);
  for (const direction of /** @type {const} */ (['download', 'upload'])) {
    const recorded = raw[direction];
    const intervals = (raw.intervals ?? []).filter((/** @type {any} */ i) => i.direction === direction);
    if (!recorded || intervals.length === 0) continue;
    const replayed = { base: replayPhase(engines.base, raw, intervals), src: replayPhase(engines.src, raw, intervals) };
    if (!replayed.base || !replayed.src) {
      mismatched++;
      continue;
    }
    const truth = truthOf?.(direction);
    if (!truth) {
      withoutTruth++;
      continue;
    }
    const error = (/** @type {number} */ bps) => (100 * (bps - truth)) / truth;
    const row = { direction, base: error(replayed.base.bps), src: error(replayed.src.bps) };
    errors.push(row);
    const recordedError = error(recorded.bitsPerSecond.value);
    if (args.all || Math.abs(row.base - row.src) > 0.05) {
      console.log(
        `${basename(dirname(file))}/${basename(file)} ${direction}: recorded ${fmt(recordedError)}, base ${fmt(row.base)}` +
          ` (${replayed.base.how}), src ${fmt(row.src)} (${replayed.src.how})`,
      );
    }
  }
}
for (const direction of ['download', 'upload']) {
  const rows = errors.filter((row) => row.direction === direction);
  if (rows.length === 0) continue;
  const changed = rows.filter((row) => Math.abs(row.base - row.src) > 0.05).length;
  console.log(
    `${direction}: ${rows.length} phases, ${changed} read differently; |error| median base ${stat(rows, 'base', 0.5)}` +
      ` src ${stat(rows, 'src', 0.5)}, 90th percentile base ${stat(rows, 'base', 0.9)} src ${stat(rows, 'src', 0.9)},` +
      ` worst base ${stat(rows, 'base', 1)} src ${stat(rows, 'src', 1)}; within 1.5 %: base ${within(rows, 'base')}` +
      ` src ${within(rows, 'src')}`,
  );
}
console.log(`${mismatched} phases left out (replayed stream changes differ from the recorded ones)`);
if (withoutTruth > 0) console.log(`${withoutTruth} phases without a truth in their run's JSON`);

/**
 * The ramp replayed over the phase's final intervals, decision by decision as `rampUntilDecided` takes them (one per
 * closed interval), then `summarizeBandwidth`. Null when the replayed stream changes are not the recorded ones.
 * @param {any} engine
 * @param {any} raw the saved run
 * @param {{ direction: string, bitsPerSecond: number, streams: number, startMs: number }[]} intervals the phase's, oldest first
 */
function replayPhase(engine, raw, intervals) {
  const options = raw.options;
  const rates = intervals.map((interval) => interval.bitsPerSecond);
  const intervalMs = intervals.length > 1 ? intervals[1].startMs - intervals[0].startMs : options.intervalMs;
  /** @type {{ intervalIndex: number, streams: number }[]} */
  const recordedChanges = [];
  intervals.forEach((interval, index) => {
    if (index > 0 && interval.streams !== intervals[index - 1].streams) {
      recordedChanges.push({ intervalIndex: index, streams: interval.streams });
    }
  });
  let streams = intervals[0].streams;
  let stepStartIndex = 0;
  /** @type {any} */
  let previousStep = null;
  /** @type {{ intervalIndex: number, streams: number }[]} */
  const changes = [];
  /** @type {any} */
  let finish = null;
  for (let closed = 1; closed <= rates.length && !finish; closed++) {
    const decision = engine.decideRamp({
      intervalsBitsPerSecond: rates.slice(0, closed),
      stepStartIndex,
      previousStepBitsPerSecond: previousStep ? engine.mean(previousStep.window) : null,
      previousStepWindow: previousStep?.window,
      streams,
      maxStreams: options.maxStreams,
      windowIntervals: options.stableIntervals,
      tolerance: options.stableTolerance,
      maxStepIntervals: options.stableIntervals * 3,
    });
    if (decision.action === 'add-streams') {
      previousStep = { window: decision.window, streams, basis: decision.basis, settled: decision.settled };
      stepStartIndex = closed;
      streams = Math.min(options.maxStreams, streams * 2);
      changes.push({ intervalIndex: closed, streams });
    } else if (decision.action === 'finish') {
      finish = decision;
    }
  }
  const sameChanges =
    changes.length === recordedChanges.length &&
    changes.every((change, i) => change.intervalIndex === recordedChanges[i]?.intervalIndex);
  if (!sameChanges) return null;
  const phase = raw[intervals[0].direction === 'download' ? 'download' : 'upload'];
  const finalBasis = finish ? engine.pastDecision(finish.basis) : null;
  const { result } = engine.summarizeBandwidth({
    direction: intervals[0].direction,
    closedIntervals: rates,
    intervalMs,
    phaseOffsetMs: intervals[0].startMs,
    phaseDurationMs: phase.durationMs,
    streamChanges: [{ intervalIndex: 0, streams: intervals[0].streams }, ...changes],
    stepStartIndex,
    finalWindow: finish ? finish.window : null,
    finalBasis,
    previousStep,
    stopReason: finish ? (finish.stable ? 'stable' : 'step-limit') : phase.stopReason,
    stableIntervals: options.stableIntervals,
    tolerance: options.stableTolerance,
    streams,
    meteredBytes: phase.clientBytes,
    samples: [],
  });
  const settled = previousStep ? (previousStep.settled === false ? ', previous step unsettled' : '') : '';
  return { bps: result.bitsPerSecond.value, how: `${result.streams} streams, ${result.stopReason}${settled}` };
}

/** @param {number} percent */
function fmt(percent) {
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
}

/**
 * @param {{ base: number, src: number }[]} rows
 * @param {'base' | 'src'} key
 * @param {number} q
 */
function stat(rows, key, q) {
  const sorted = rows.map((row) => Math.abs(row[key])).sort((a, b) => a - b);
  return `${sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))].toFixed(1)} %`;
}

/**
 * @param {{ base: number, src: number }[]} rows
 * @param {'base' | 'src'} key
 */
function within(rows, key) {
  return `${rows.filter((row) => Math.abs(row[key]) <= 1.5).length}/${rows.length}`;
}
