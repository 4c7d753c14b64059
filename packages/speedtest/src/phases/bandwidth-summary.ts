import type { ProbeResult } from '../probe';
import { capLevel, type Estimate, meanEstimate } from '../stats/confidence';
import { settledTail, valuesOf, type WindowBasis } from '../stats/ramp';
import { clearlyAbove } from '../stats/stability';
import { mean, median } from '../stats/summary';
import { bitsPerSecond, downloadDurationMs, uploadDurationMs } from '../timing';
import type { BandwidthResult, GoodputInterval, RequestSample, StopReason } from '../types';

/** Everything a finished bandwidth phase observed, as plain data. */
export interface PhaseObservation {
  direction: 'download' | 'upload';
  /** Goodput (bit/s) of each closed interval up to the last byte. */
  closedIntervals: readonly number[];
  /**
   * Time (ms) of each closed interval during which every stream was sending (`GoodputMeter.closedBusyMs`); the figure
   * weighs its intervals by it. Omitted: every interval counts the same.
   */
  closedBusyMs?: readonly number[];
  intervalMs: number;
  /** Phase start relative to the test start (ms). */
  phaseOffsetMs: number;
  phaseDurationMs: number;
  /** Interval index where each stream count began, first at 0. */
  streamChanges: readonly { intervalIndex: number; streams: number }[];
  stepStartIndex: number;
  /** The window the ramp finished on, or null when a budget stopped the phase. */
  finalWindow: readonly number[] | null;
  /** Which intervals that window was (then the window is taken again from `closedIntervals`). */
  finalBasis?: WindowBasis | null;
  /**
   * The window that ended the previous step (fewer streams), or null in the first step. `settled`: that step was
   * stable or at a plateau when it ended (false: judged at its interval limit); omitted counts as settled.
   */
  previousStep: { window: readonly number[]; streams: number; basis?: WindowBasis; settled?: boolean } | null;
  stopReason: StopReason;
  stableIntervals: number;
  /** Relative difference below which two steps count as the same goodput (e.g. 0.05). */
  tolerance: number;
  streams: number;
  /** Bytes the goodput meter counted (bytes). */
  meteredBytes: number;
  samples: readonly RequestSample[];
}

/**
 * Pure: the phase's figure and its intervals. The figure is the mean of the window the ramp finished on; after a
 * budget stop, of the current step's latest intervals (`settledTail`: warm-up left out, see `decideRamp`).
 * The previous step (fewer streams) stands instead only when it was clearly higher (`clearlyAbove`) and had settled
 * (stable or at a plateau): more streams that lowered goodput (contention, a busy client) say nothing about the link,
 * but taking the higher of two estimates of the same rate would bias every result upward. A step judged at its
 * interval limit had not settled, and its last window may be slow start's release burst: 40/8 Mbit/s, 120 ms, 0.5 %
 * loss, 2026-11-26, a one-stream window of 37.2, 61.2, 51.6 and 48.3 Mbit/s on a 38.3 Mbit/s link stood for it at
 * +29.6 %. When neither step is clearly above the other, or the higher one had not settled, the figure is every
 * interval from the previous step's window on: the same link, measured longer.
 * The window then starts after a leading release (`leadingReleases`: a burst of bytes held back before it) and ends
 * before its trailing dips (`withoutTrailingDips`: a loss's hold-back whose burst came after it), downloads and
 * uploads alike; a download window that holds a stall ends where the page had caught up instead (`caughtUpEnd`).
 * A phase that met the stability criterion may be high confidence; one stopped by its budget at most medium (its
 * last window might be one long request spread evenly), and low with fewer intervals than a full window, or none at
 * all (then the phase's average rate stands in).
 */
export function summarizeBandwidth(observed: PhaseObservation): {
  result: BandwidthResult;
  intervals: GoodputInterval[];
} {
  const { direction, closedIntervals, samples } = observed;
  const streamsAt = (index: number) =>
    observed.streamChanges.filter((change) => change.intervalIndex <= index).at(-1)?.streams ?? 1;
  const intervals = closedIntervals.map((bitsPerSecond, index) => ({
    direction,
    startMs: observed.phaseOffsetMs + index * observed.intervalMs,
    durationMs: observed.intervalMs,
    bitsPerSecond,
    streams: streamsAt(index),
  }));
  const stepIntervals = closedIntervals.slice(observed.stepStartIndex + 1);
  // A window the ramp decided on is taken again from the final intervals (bytes in flight at the decision have landed
  // since), so the headline is the mean of interval values the CSV reports.
  const again = (snapshot: readonly number[], basis: WindowBasis | null | undefined) => {
    const values = basis ? valuesOf(basis, closedIntervals) : [];
    return values.length > 0 ? values : [...snapshot];
  };
  // Which intervals (indices) the window is, when it is a run of final intervals: their busy time weighs them.
  const rangeOf = (basis: WindowBasis | null | undefined): IndexRange | null =>
    basis && basis.pick === 'all' && valuesOf(basis, closedIntervals).length > 0
      ? { start: basis.startIndex, end: basis.endIndex }
      : null;
  let window = observed.finalWindow
    ? again(observed.finalWindow, observed.finalBasis)
    : settledTail(stepIntervals, observed.stableIntervals, observed.tolerance);
  let range = observed.finalWindow
    ? rangeOf(observed.finalBasis)
    : { start: closedIntervals.length - window.length, end: closedIntervals.length };
  let streams = observed.streams;
  const previous = observed.previousStep;
  const previousWindow = previous ? again(previous.window, previous.basis) : [];
  if (
    previous &&
    previousWindow.length > 0 &&
    (window.length === 0 || (previous.settled !== false && clearlyAbove(previousWindow, window, observed.tolerance)))
  ) {
    window = previousWindow;
    range = rangeOf(previous.basis);
    streams = previous.streams;
  } else if (
    previous?.basis &&
    previousWindow.length > 0 &&
    !clearlyAbove(window, previousWindow, observed.tolerance)
  ) {
    // More streams gained nothing: both steps measured the same link, so every interval from the previous step's
    // last window to the end stands for it. Bursts (a loss recovered a round trip later holds bytes back, then
    // releases them) only average out over seconds: on 5 Mbit/s with 200 ms and 0.5 % loss, 400 ms intervals read
    // 0.1–9.4. Its last window only, whatever that step's figure was: the first step opens a new connection (and
    // grows upload requests from `minRequestBytes`), and a window before its last held that rise (an upload on
    // 100 Mbit/s, 80 ms read −9.5 % with 23 and 29 Mbit/s intervals in).
    const endIndex = observed.finalBasis?.endIndex ?? closedIntervals.length;
    const startIndex = Math.max(previous.basis.startIndex, previous.basis.endIndex - observed.stableIntervals);
    const merged = closedIntervals.slice(startIndex, endIndex);
    if (merged.length > window.length) {
      window = merged;
      range = { start: startIndex, end: startIndex + merged.length };
    }
  }
  if (range) {
    const released = leadingReleases(closedIntervals, range);
    if (released > 0) {
      range = { start: range.start + released, end: range.end };
      window = window.slice(released);
    }
  }
  const kept =
    (direction === 'download' ? caughtUpEnd(window) : null) ?? withoutTrailingDips(window, observed.tolerance);
  if (kept < window.length) {
    window = window.slice(0, kept);
    range = range ? { start: range.start, end: range.start + kept } : null;
  }
  const averageBitsPerSecond = (observed.meteredBytes * 8 * 1000) / Math.max(1, observed.phaseDurationMs);
  const ceiling =
    observed.stopReason === 'stable'
      ? 'high'
      : (observed.finalWindow ?? stepIntervals).length >= observed.stableIntervals
        ? 'medium'
        : 'low';
  const sum = (pick: (sample: RequestSample) => number) => samples.reduce((total, sample) => total + pick(sample), 0);
  const basis = window.length > 0 ? [...window] : [averageBitsPerSecond];
  const weights = range && observed.closedBusyMs ? observed.closedBusyMs.slice(range.start, range.end) : [];
  const estimate =
    weights.length === basis.length && window.length > 0
      ? busyWeighted(meanEstimate(basis), basis, weights)
      : meanEstimate(basis);
  return {
    result: {
      bitsPerSecond: capLevel(estimate, ceiling),
      headlineBasisBitsPerSecond: basis,
      headlineSource: window.length > 0 ? 'intervals' : 'phase-average',
      ...(range && window.length > 0
        ? {
            headlineWindowMs: {
              startMs: observed.phaseOffsetMs + range.start * observed.intervalMs,
              endMs: observed.phaseOffsetMs + range.end * observed.intervalMs,
            },
          }
        : {}),
      streams,
      stopReason: observed.stopReason,
      clientBytes: direction === 'download' ? observed.meteredBytes : sum((sample) => sample.bytes),
      serverBytes: direction === 'upload' ? sum((sample) => sample.receivedBytes ?? 0) : null,
      durationMs: observed.phaseDurationMs,
    },
    intervals,
  };
}

/**
 * How many of a download window's intervals to keep (pure): its trailing intervals below the window's median by more
 * than twice `tolerance` go, at most half of the window.
 * Why: TCP hands a stream's bytes to the page in order, so a loss holds back everything behind it until the
 * retransmission arrives, about one loaded round trip later: an interval reads low, a later one high by as much. A
 * window the ramp chose as stable starts on steady intervals (a burst owed to an earlier loss would not look stable),
 * but it ends wherever the ramp decided, often inside such a hold-back whose burst falls after it: the figure then
 * misses those bytes (5/1 Mbit/s, 200 ms, 0.5 % loss, 2026-11-26: windows ending 2.61, 3.24 and 3.99, 2.93,
 * 2.38 Mbit/s on a 4.8 Mbit/s plateau read −6 %). Ending the window before the trailing dips puts both of its ends on
 * intervals that owe nothing. Twice the tolerance: a hold-back's intervals read 17–75 % low there, where steady
 * intervals stay within the tolerance, so noise alone rarely shortens a window (each interval it dropped would lift
 * the figure). Uploads the same: an upload interval closes once the uploads overlapping it have finished, but the
 * bytes a hole in one upload's reads held back are read after the hole, and when the window's last interval ends in
 * the hole they land in an interval after the window (5/1 Mbit/s, 200 ms, 0.5 % loss, 2026-11-26: windows ending
 * `…, 0.65, 0.09` and `…, 0.34` Mbit/s on a 0.97 Mbit/s link, server reads stopped 560–700 ms and then released
 * 56 kB at once, read 0.869, 0.878 and 0.887 where the same bytes without the trailing dips read 0.946, 0.929 and
 * 0.962; figures on 100/100 Mbit/s 80 ms, 100/20 Mbit/s 20 ms and 50/10 Mbit/s 40 ms 2 % unchanged on replay).
 */
export function withoutTrailingDips(values: readonly number[], tolerance: number): number {
  const floor = median(values) * (1 - 2 * tolerance);
  let end = values.length;
  while (end > Math.ceil(values.length / 2) && (values[end - 1] as number) < floor) end--;
  return end;
}

/** A download window holds a stall when one of its intervals read below this share of the window's median. */
const stallRatio = 0.5;
/** How many of a download window's last boundaries its end may move back over (each interval ≥ 2 round trips). */
const caughtUpLookbackIntervals = 4;

/**
 * Where a download window that holds a stall ends (pure): how many of its intervals to keep, the boundary among its
 * last `caughtUpLookbackIntervals` at which the page had read furthest ahead of the window's mean rate (the intervals
 * after it read below that rate by the most bytes), at most half of the window dropped; null when no interval of the
 * window read below `stallRatio` of its median (`withoutTrailingDips` then decides).
 * Why: on a path where a loss holds a stream's bytes back for longer than an interval (5/1 Mbit/s, 200 ms: a round
 * trip behind a 400 ms queue, longer when the retransmission is lost too), the page reads nothing, then the held
 * bytes at once. A window ends wherever the ramp decided, so often inside such a hold-back, and the bytes of its
 * burst fall after it. `withoutTrailingDips` only finds a hold-back that ends the window with dips; with two streams,
 * one stream's hold-back shows as dips the other stream's steady interval then ends (5/1 Mbit/s, 200 ms, 2 %,
 * 2026-11-29: `…, 7.02, 7.45, 2.72, 1.35, 0.50, 4.74` on a 4.78 Mbit/s wire, read −12 %). The boundary where the page
 * was furthest ahead is where it had caught up with what the link had carried: every byte before it had been handed
 * over, as at the window's start. Replayed over the 732 download phases recorded since 2026-11-26 (`ramp-replay.mjs`,
 * 2026-11-30): within 1.5 % of iperf3 332 → 362, 90th percentile of the error 6.1 → 5.8 %; of the 113 it moved (every
 * one up), 86 toward the truth. 5/1 Mbit/s, 200 ms: 0.5 % 30 → 39 of 53 (median −1.2 → −0.4 %), 2 % 10 → 16 of 77
 * (−2.7 → −0.9 %); links the rule was not made on: 3/1 Mbit/s 250 ms 1 % −12.8, −5.4, −4.4 → −6.6, −1.7, +0.4 % (runs
 * of the same evening), 1/1 400 ms −4.8 → +0.5 %; further from it 40/8 Mbit/s 120 ms 0.5 % (median +0.1 → +2.1 %, 17
 * phases). Only where a stall shows: where no interval falls to half the median, the ends of a window are noise, and
 * moving its end to the highest of a few boundaries would lift every figure.
 */
export function caughtUpEnd(values: readonly number[]): number | null {
  const count = values.length;
  if (count < 2 || !(Math.min(...values) < median(values) * stallRatio)) return null;
  const meanRate = mean(values);
  // Bytes read ahead of the mean rate at each boundary (in interval × bit/s): 0 at both ends of the window.
  const ahead = [0];
  for (const value of values) ahead.push((ahead.at(-1) as number) + value - meanRate);
  const earliest = Math.max(count - caughtUpLookbackIntervals, Math.ceil(count / 2));
  let end = count;
  // Ahead by more than rounding: a window whose tail reads exactly its mean keeps its end.
  const rounding = meanRate * 1e-9;
  for (let boundary = count - 1; boundary >= earliest; boundary--) {
    if ((ahead[boundary] as number) > (ahead[end] as number) + rounding) end = boundary;
  }
  return end;
}

/** A window's first interval counts as a release only at this multiple of the window's median or above. */
const releaseRatio = 1.5;
/**
 * How many intervals before the window may have held a release's bytes back (each at least two idle round trips):
 * recovering slow start's overshoot took three of them on 25/3 Mbit/s, 600 ms (the example below).
 */
const releaseLookbackIntervals = 3;

/**
 * How many of a window's first intervals are releases of bytes held back before it (pure): an interval at least
 * `releaseRatio` times the window's median, when the `releaseLookbackIntervals` intervals before the window fell short
 * of that median by at least as many bytes as it carries above it. Each one dropped spends what it owed.
 * Why: the mirror of `withoutTrailingDips`. A loss (or slow start's overshoot) holds back everything behind it until
 * the retransmission lands, and those bytes then arrive at once. A window that begins on that burst counts the bytes
 * but not the time the link carried them: 25/3 Mbit/s, 600 ms (1.2 s intervals, 2026-11-29, `s54-unseen`), a
 * one-stream step judged at its interval limit read `8.4, 2.9, 0.0, 79.8, 23.8, 23.9, 23.7`, its window began on the
 * 79.8 and the figure read 35.0 Mbit/s on a 23.9 Mbit/s link. The bytes must pair up: the intervals before the window
 * are outside the figure, so a burst whose shortfall lies there is unpaired inside it, while a burst that merely reads
 * high (noise, a faster moment) owes nothing and stays. 1.5 times the median: well beyond the spread a stable window
 * allows (`tolerance`, e.g. 5 %), so noise alone rarely drops one (dropping lowers the figure).
 */
export function leadingReleases(intervals: readonly number[], range: IndexRange): number {
  const window = intervals.slice(range.start, range.end);
  const middle = median(window);
  let owed = 0;
  for (let index = Math.max(0, range.start - releaseLookbackIntervals); index < range.start; index++)
    owed += Math.max(0, middle - (intervals[index] as number));
  let dropped = 0;
  while (dropped < Math.floor(window.length / 2)) {
    const value = window[dropped] as number;
    if (value < middle * releaseRatio || owed < value - middle) break;
    owed -= value - middle;
    dropped++;
  }
  return dropped;
}

/** Indices [start, end) of closed intervals. */
export interface IndexRange {
  start: number;
  end: number;
}

/**
 * The estimate moved to the busy-time-weighted mean of `values` (bytes over the time every stream was sending), its
 * interval keeping the relative width the intervals' spread gave. Equal weights give the plain mean back.
 */
export function busyWeighted(estimate: Estimate, values: readonly number[], weightsMs: readonly number[]): Estimate {
  const totalMs = weightsMs.reduce((sum, weightMs) => sum + weightMs, 0);
  if (!(totalMs > 0) || !(estimate.value > 0)) return estimate;
  const value = values.reduce((sum, rate, index) => sum + rate * (weightsMs[index] ?? 0), 0) / totalMs;
  const scale = value / estimate.value;
  return { ...estimate, value, low: estimate.low * scale, high: estimate.high * scale };
}

/** Pure: one finished transfer as a CSV row. Rates under 10 ms of transfer are left out (timer resolution). */
export function transferSample(
  direction: 'download' | 'upload',
  probe: ProbeResult,
  bytes: number,
  parallelStreams: number,
  idleRttMs: number,
  testOriginMs: number,
): RequestSample {
  const durationMs =
    direction === 'download' ? downloadDurationMs(probe.timing) : uploadDurationMs(probe.timing, idleRttMs);
  return {
    kind: direction,
    bytes,
    receivedBytes: probe.receivedBytes,
    startMs: probe.startMs - testOriginMs,
    durationMs,
    bitsPerSecond: bitsPerSecond(bytes, durationMs, 10),
    ttfbMs: probe.timing.ttfbMs,
    serverMs: probe.serverMs,
    pingMs: probe.timing.pingMs,
    parallelStreams,
    load: direction,
    timingSource: probe.timing.source,
  };
}
