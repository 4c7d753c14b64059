import { clearlyAbove, relativeSpread, trimmed } from './stability';
import { mean } from './summary';

/**
 * Which closed intervals a step's figure came from: indices [startIndex, endIndex) of the phase's intervals, all of
 * them or their middle half. Bytes of requests still in flight keep landing in closed intervals after the decision,
 * so the phase's summary takes the same intervals again once every byte is in, and the headline stays the mean of
 * interval values the CSV reports.
 */
export interface WindowBasis {
  readonly startIndex: number;
  readonly endIndex: number;
  readonly pick: 'all' | 'trimmed';
}

/** What the bandwidth phase does next. */
export type RampDecision =
  | { action: 'wait' }
  | { action: 'add-streams'; window: number[]; basis: WindowBasis; settled: boolean }
  | { action: 'finish'; window: number[]; basis: WindowBasis; stable: boolean };

export interface RampState {
  /** Goodput (bit/s) of every closed interval of the phase, oldest first. */
  intervalsBitsPerSecond: readonly number[];
  /** Index of the first interval that began after the stream count last changed. */
  stepStartIndex: number;
  /** Mean goodput of the window that ended the previous step, or null in the first step. */
  previousStepBitsPerSecond: number | null;
  /** That window's values, when known: a gain must then also exceed the noise of both windows. */
  previousStepWindow?: readonly number[];
  streams: number;
  maxStreams: number;
  /** Intervals that must agree (e.g. 4). */
  windowIntervals: number;
  /** Allowed relative spread of the window, and the gain that justifies more streams (e.g. 0.05). */
  tolerance: number;
  /** Spans (body chunks, finished uploads) that ended in each interval, aligned with the rates; omitted = enough. */
  spanEndsPerInterval?: readonly number[];
  /** Span ends per interval that healthy streams give at the least (default 0.5: 500 ms requests, 250 ms intervals). */
  minSpanEndsPerInterval?: number;
  /** A step that never settles (neither stable nor at a plateau) is judged after this many intervals. */
  maxStepIntervals: number;
}

/**
 * One ramp step. The step is settled when the current stream count's last `windowIntervals` intervals agree within
 * `tolerance` (stable), or when goodput stopped rising: the last window is not clearly above the window before it
 * (plateau: not more than `tolerance` above it, or not beyond the noise, see `clearlyAbove`). Until then TCP is still opening its windows (slow start, or a new connection taking
 * its share), and a figure taken then reads low: on a 100 Mbit/s path with 80 ms RTT the step-limited figure that
 * judged a fixed number of intervals read −30 % while the last intervals had reached the rate. A step that never
 * settles is judged after `maxStepIntervals`.
 * The step's figure is its latest contiguous intervals, warm-up excluded (`settledTail`): the last two windows at a
 * plateau, else the last window. Contiguous intervals hold every
 * byte that arrived in them, so bursts (a loss recovered one round trip later, an upload spread over its request)
 * average out, while a subset picked by value (a trimmed middle) would be biased.
 * Then add streams if this step is clearly above the previous one (the first step always does: it is the
 * reference), otherwise finish.
 */
export function decideRamp(state: RampState): RampDecision {
  const size = state.windowIntervals;
  // The first interval after a change mixes two stream counts (and slow start); it is never judged.
  const step = state.intervalsBitsPerSecond.slice(state.stepStartIndex + 1);
  if (step.length < size) return { action: 'wait' };
  const window = step.slice(-size);
  const earlier = step.length >= 2 * size ? step.slice(-2 * size, -size) : [];
  // Agreeing intervals only count when transfers ended inside them: one stalled request spread evenly over many
  // intervals looks perfectly flat. Half a completion per interval is the least a healthy upload stream gives.
  // Counted over both windows when there are two: an upload lasting 8 round trips or more may end in neither of 4 intervals.
  const judged = Math.min(step.length, 2 * size);
  const spanEnds = (state.spanEndsPerInterval ?? []).slice(state.stepStartIndex + 1).slice(-judged);
  const progressed =
    !state.spanEndsPerInterval ||
    spanEnds.reduce((sum, ends) => sum + ends, 0) >= judged * (state.minSpanEndsPerInterval ?? 0.5);
  const stable = progressed && relativeSpread(window) <= state.tolerance;
  // Not "not clearly above" (within the noise): the noise of a window that holds the end of slow start is its own
  // rise, and a loss burst in the last window widens it further, so a 100 Mbit/s, 80 ms step that still rose from
  // 50 to 91 Mbit/s passed as a plateau and its figure kept the rise (−15 %). Waiting costs intervals, not accuracy:
  // stopping on the difference of two windows leaves the mean of both unbiased, and `maxStepIntervals` bounds it.
  const plateau = progressed && earlier.length > 0 && !(mean(window) > mean(earlier) * (1 + state.tolerance));
  const limited = step.length >= state.maxStepIntervals;
  if (!stable && !plateau && !limited) return { action: 'wait' };
  // A stable last window stands alone unless the one before was stable too: a window that is not holds the end of
  // slow start or a burst released after a loss, whose bytes partly crossed the link before it.
  const earlierStable = earlier.length > 0 && relativeSpread(earlier) <= state.tolerance;
  const representative = stable && !earlierStable ? window : settledTail(step, size, state.tolerance);
  const endIndex = state.intervalsBitsPerSecond.length;
  const basis: WindowBasis = { startIndex: endIndex - representative.length, endIndex, pick: 'all' };
  const firstStep = state.previousStepBitsPerSecond === null;
  const previous = state.previousStepWindow ?? [state.previousStepBitsPerSecond ?? 0];
  const gained = firstStep || clearlyAbove(representative, previous, state.tolerance);
  // Settled: stable or at a plateau. A step judged at its interval limit is neither, and its window may hold a rise or a
  // release burst: the summary does not let such a window stand alone for the link (`summarizeBandwidth`).
  const settled = stable || plateau;
  if (gained && state.streams < state.maxStreams)
    return { action: 'add-streams', window: representative, basis, settled };
  return { action: 'finish', window: representative, basis, stable: settled };
}

/**
 * The latest contiguous intervals that stand for a step (pure): the last two windows of `size` intervals once the
 * last is not clearly above the one before (`clearlyAbove`: goodput stopped rising; twice the bytes, half the noise),
 * else the last window (still rising: the latest is nearest the link), or the whole step when it is shorter than a
 * window.
 */
export function settledTail(step: readonly number[], size: number, tolerance: number): number[] {
  if (step.length <= size) return [...step];
  const window = step.slice(-size);
  if (step.length < 2 * size) return window;
  const earlier = step.slice(-2 * size, -size);
  return clearlyAbove(window, earlier, tolerance) ? window : step.slice(-2 * size);
}

/**
 * Intervals the figure runs on past the ramp's decision (each at least 2 round trips long). The decision reads the
 * latest windows, and what makes them read "no longer rising" is often a loss: its stream's bytes wait at the
 * receiver for the retransmission, a round trip or two, and arrive in a burst after it. A figure that ended at the
 * decision would end on that stall without its burst (−9.5 % on 5/1 Mbit/s, 200 ms, 0.5 % loss, where the stream's
 * last intervals read 2.4 and 3.4 Mbit/s); one interval more, on which nothing was decided, takes the burst in.
 */
export const afterDecisionIntervals = 1;

/** The basis of a finished phase's figure (pure): the decided window and `afterDecisionIntervals` more. */
export function pastDecision(basis: WindowBasis): WindowBasis {
  return { ...basis, endIndex: basis.endIndex + afterDecisionIntervals };
}

/**
 * Whether a step with more streams could still be judged before the phase's time budget ends (pure): its first
 * interval mixes two stream counts and is never judged, then come a window of `windowIntervals` and the interval past
 * the decision. Without that room the new streams only disturb the end of the phase: on 25/3 Mbit/s, 600 ms (1.2 s
 * intervals, an 18 s budget) one stream settled at 23.9, 23.8, 23.8 Mbit/s on a 23.9 Mbit/s link with 3 intervals
 * left; the second stream's slow start then overflowed the queue, the first stream's bytes waited for their
 * retransmissions (2.7 and 14.1, 9.9 Mbit/s), their burst came after the budget, and the figure, the settled window
 * with those intervals, read 19.9 in 2 of 3 runs (2026-11-28, `bench/results/accuracy/s51-geo`, with `--samples`).
 * @param remainingMs time left in the phase's budget (ms)
 * @param intervalMs the phase's interval (ms)
 */
export function roomForAnotherStep(remainingMs: number, intervalMs: number, windowIntervals: number): boolean {
  return remainingMs >= (1 + windowIntervals + afterDecisionIntervals) * intervalMs;
}

/** The values a basis names, taken from (final) interval rates; empty when those intervals are not there. */
export function valuesOf(basis: WindowBasis, intervalsBitsPerSecond: readonly number[]): number[] {
  const values = intervalsBitsPerSecond.slice(basis.startIndex, basis.endIndex);
  if (values.length < basis.endIndex - basis.startIndex) return [];
  return basis.pick === 'trimmed' ? trimmed(values) : values;
}

/**
 * Size of a stream's next request so it lasts about `targetMs` at the rate its last request achieved, growing at
 * most 8× per request (one fast request must not trigger a runaway size) and clamped to [minBytes, maxBytes].
 */
export function nextRequestBytes(
  lastBytes: number,
  lastDurationMs: number,
  targetMs: number,
  minBytes: number,
  maxBytes: number,
): number {
  const ideal = lastDurationMs > 0 ? (lastBytes * targetMs) / lastDurationMs : lastBytes * 8;
  const bounded = Math.min(ideal, lastBytes * 8);
  return Math.round(Math.min(maxBytes, Math.max(minBytes, bounded)));
}
