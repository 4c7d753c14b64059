// `node bench/accuracy/upload-diag.mjs FILE.json… [--src packages/speedtest/src] [--verbose] [--no-stalls]`
// Replays the upload phase of a saved `--samples` run of `speedkit-direct` (or `-base`), whose page recorded every
// upload's receipt (the server's read timeline) and resource timing (engines.mjs): the engine's own placement
// (upload-spans.ts), idle gaps and stalls, and goodput meter (goodput.ts), bundled from `--src` (default: this
// worktree's engine; another copy replays the same bytes with another engine). Prints each interval's bytes and the
// time it was measured over, and which of it came right after a stall or an idle gap: where a figure above the
// link comes from. Ad hoc (not part of the bench's run); the replay approximates the stall threshold's loaded round
// trip from the pings that had finished when each upload did.
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
    verbose: { type: 'boolean', default: false },
    // Replays with no stall left out (what the figure would be if holes in the reads stayed in).
    'no-stalls': { type: 'boolean', default: false },
  },
});
const srcDir = resolve(args.src ?? join(repoRoot, 'packages', 'speedtest', 'src'));

const engine = await bundleEngine(srcDir, [
  `export { GoodputMeter } from './stats/goodput';`,
  `export { uploadSpans, uploadGaps } from './stats/upload-spans';`,
  `export { stallThresholdMs, pathTiming } from './phases/bandwidth-request';`,
  `export { busyWeighted } from './phases/bandwidth-summary';`,
  `export { median } from './stats/summary';`,
]);
const mbit = (/** @type {number} */ bps) => (bps / 1e6).toFixed(3);

for (const file of files) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  const diag = raw.diagnostics;
  if (!diag) {
    console.log(`${file}: no diagnostics (only speedkit-direct runs record them)`);
    continue;
  }
  replay(file, raw, diag);
}

/**
 * @param {string} file
 * @param {any} raw
 * @param {{ testOriginMs: number, uploads: { url: string, startedMs: number, receipt: any }[], timings: any[] }} diag
 */
function replay(file, raw, diag) {
  const origin = diag.testOriginMs;
  const saved = raw.intervals.filter((/** @type {any} */ i) => i.direction === 'upload');
  const { idleRttMs, pings, uploads: byStart, previousOf } = recordedUploads(raw);
  const { intervalMs } = engine.pathTiming(raw.options, idleRttMs);
  const phaseStartMs = origin + saved[0].startMs;
  // Fed to the meter in the order they finished, as the engine does.
  const uploads = byStart.toSorted((a, b) => a.timing.responseEnd - b.timing.responseEnd);
  const meter = new engine.GoodputMeter(phaseStartMs, intervalMs);
  /** @type {{ startMs: number, endMs: number, kind: string }[]} */
  const gaps = [];
  /** @type {Map<any, any>} */
  const placementOf = new Map();
  for (const upload of uploads) {
    const placement = placeRecordedUpload(engine, upload, pings, idleRttMs, !args['no-stalls']);
    placementOf.set(upload, placement);
    meter.addSpans(placement.spans);
    const previous = previousOf.get(upload);
    const previousEnd = previous ? (placementOf.get(previous)?.receiveEndMs ?? null) : null;
    for (const gap of engine.uploadGaps(placement, previousEnd)) {
      meter.addGap(gap.startMs, gap.endMs);
      const stall = stallsOf(placement).some((s) => s.startMs === gap.startMs);
      gaps.push({ ...gap, kind: stall ? 'stall' : 'idle' });
    }
  }
  const closedUntilMs = phaseStartMs + saved.length * intervalMs;
  const rates = meter.closedIntervals(closedUntilMs);
  const busy = meter.closedBusyMs(closedUntilMs);
  const basis = raw.upload.headlineBasisBitsPerSecond;
  const start = findRun(
    saved.map((/** @type {any} */ i) => i.bitsPerSecond),
    basis,
  );
  console.log(
    `== ${file}\n reported ${mbit(raw.upload.bitsPerSecond.value)} Mbit/s (${raw.upload.stopReason}, ${raw.upload.streams} streams), idle RTT ${idleRttMs.toFixed(0)} ms, interval ${intervalMs.toFixed(0)} ms, ${uploads.length} uploads, figure on intervals ${start}…${start + basis.length - 1}`,
  );
  for (const upload of uploads) {
    const p = placementOf.get(upload);
    const t = upload.timing;
    console.log(
      `  upload ${rel(t.requestStart)}→${rel(t.responseStart)} ms, ${upload.receipt.receivedBytes} B, server read ${rel(p.receiveStartMs)}→${rel(p.receiveEndMs)}, after ${previousOf.has(upload) ? rel(placementOf.get(previousOf.get(upload)).receiveEndMs) : '—'}, stalls ${
        stallsOf(p)
          .map((s) => `${rel(s.startMs)}–${rel(s.endMs)}`)
          .join(' ') || 'none'
      }`,
    );
    if (args.verbose) {
      console.log(
        `    timeline ${upload.receipt.receiveTimeline.map((/** @type {number[]} */ [ms, b]) => `${ms}:${b}`).join(' ')}`,
      );
    }
  }
  let figureBits = 0;
  let figureMs = 0;
  for (let index = 0; index < rates.length; index++) {
    const from = phaseStartMs + index * intervalMs;
    const to = from + intervalMs;
    const inFigure = start >= 0 && index >= start && index < start + basis.length;
    const stallMs = overlapMs(
      gaps.filter((g) => g.kind === 'stall'),
      from,
      to,
    );
    const idleMs = overlapMs(
      gaps.filter((g) => g.kind === 'idle'),
      from,
      to,
    );
    if (inFigure) {
      figureBits += rates[index] * busy[index];
      figureMs += busy[index];
    }
    console.log(
      `  ${inFigure ? '*' : ' '} #${String(index).padStart(2)} ${rel(from)} ms: saved ${mbit(saved[index]?.bitsPerSecond ?? Number.NaN)} replay ${mbit(rates[index])} Mbit/s over ${busy[index].toFixed(0)} ms busy; idle-gap ${idleMs.toFixed(0)} ms, stall ${stallMs.toFixed(0)} ms, kbit in busy time ${((rates[index] * busy[index]) / 1e6).toFixed(1)}`,
    );
  }
  if (figureMs > 0) {
    console.log(
      ` figure replayed: ${mbit(figureBits / figureMs)} Mbit/s = ${(figureBits / 8e6).toFixed(1)} kB over ${figureMs.toFixed(0)} ms busy`,
    );
  }

  /** @param {number} timeMs */
  function rel(timeMs) {
    return (timeMs - origin).toFixed(0);
  }
}

/**
 * What an engine's placement left out as stalls: `stalls` (main until 2026-11-26) or `stall` (to the last read).
 * @param {any} placement
 * @returns {{ startMs: number, endMs: number }[]}
 */
function stallsOf(placement) {
  if (!placement.fromServer) return [];
  return placement.stalls ?? (placement.stall ? [placement.stall] : []);
}

/** @param {{ startMs: number, endMs: number }[]} spans @param {number} from @param {number} to */
function overlapMs(spans, from, to) {
  // Union of the spans within [from, to].
  const clipped = spans
    .map((s) => [Math.max(from, s.startMs), Math.min(to, s.endMs)])
    .filter(([a, b]) => b > a)
    .sort((a, b) => a[0] - b[0]);
  let total = 0;
  let reach = from;
  for (const [a, b] of clipped) {
    if (b <= reach) continue;
    total += b - Math.max(a, reach);
    reach = b;
  }
  return total;
}
