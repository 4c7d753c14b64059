import { relativeSpread, trimmed } from './stability';
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
  | { action: 'add-streams'; window: number[]; basis: WindowBasis }
  | { action: 'finish'; window: number[]; basis: WindowBasis; stable: boolean };

export interface RampState {
  /** Goodput (bit/s) of every closed interval of the phase, oldest first. */
  intervalsBitsPerSecond: readonly number[];
  /** Index of the first interval that began after the stream count last changed. */
  stepStartIndex: number;
  /** Mean goodput of the window that ended the previous step, or null in the first step. */
  previousStepBitsPerSecond: number | null;
  streams: number;
  maxStreams: number;
  /** Intervals that must agree (e.g. 4). */
  windowIntervals: number;
  /** Allowed relative spread of the window, and the gain that justifies more streams (e.g. 0.05). */
  tolerance: number;
  /** Spans (body chunks, finished uploads) that ended in each interval, aligned with the rates; omitted = enough. */
  spanEndsPerInterval?: readonly number[];
  /** A step that never stabilises is judged on all its intervals after this many. */
  maxStepIntervals: number;
  /**
   * What stands for a step: `window` = the agreeing window when stable, else the step's interquartile mean (download,
   * whose intervals hold the bytes as they arrived); `step` = every interval of the step (upload, see below).
   */
  summary?: 'window' | 'step';
}

/**
 * One ramp step: wait until the current stream count has `windowIntervals` intervals that agree within
 * `tolerance`, or the step ran `maxStepIntervals` (the first step, one stream, only needs one full window: it is the
 * reference for the next step, and slow start keeps it noisy). A stable step is represented by its agreeing window,
 * an unstable one by the middle half of all its intervals (`trimmed`: their interquartile mean), or, with
 * `summary: 'step'`, any step by all its intervals. Then add streams if this step beat the previous one by more than
 * `tolerance` (one more connection still helps), otherwise finish.
 */
export function decideRamp(state: RampState): RampDecision {
  // The first interval after a change mixes two stream counts (and slow start); it is never judged.
  const step = state.intervalsBitsPerSecond.slice(state.stepStartIndex + 1);
  if (step.length < state.windowIntervals) return { action: 'wait' };
  const window = step.slice(-state.windowIntervals);
  // Agreeing intervals only count when transfers ended inside them: one stalled request spread evenly over many
  // intervals looks perfectly flat. Half a completion per interval is the least a healthy upload stream gives.
  const spanEnds = (state.spanEndsPerInterval ?? []).slice(state.stepStartIndex + 1).slice(-state.windowIntervals);
  const progressed =
    !state.spanEndsPerInterval || spanEnds.reduce((sum, ends) => sum + ends, 0) >= state.windowIntervals / 2;
  const stable = progressed && relativeSpread(window) <= state.tolerance;
  // Upload intervals hold each request's bytes spread at that request's average rate, so overlapping requests make
  // them swing around the true rate; any subset (an agreeing window, a trimmed middle) then picks a biased sample,
  // while the mean of the whole step keeps every byte in it. Measured on a 47.8 Mbit/s link with 40 ms delay:
  // interquartile mean +6.1%, whole step +0.4% (docs/accuracy.md).
  const representative = state.summary === 'step' ? [...step] : stable ? window : trimmed(step);
  const endIndex = state.intervalsBitsPerSecond.length;
  const basis: WindowBasis =
    state.summary === 'step'
      ? { startIndex: state.stepStartIndex + 1, endIndex, pick: 'all' }
      : stable
        ? { startIndex: endIndex - window.length, endIndex, pick: 'all' }
        : { startIndex: state.stepStartIndex + 1, endIndex, pick: 'trimmed' };
  const firstStep = state.previousStepBitsPerSecond === null;
  if (firstStep && state.streams < state.maxStreams) return { action: 'add-streams', window: representative, basis };
  if (!stable && step.length < state.maxStepIntervals) return { action: 'wait' };
  const gained = firstStep || mean(representative) > (state.previousStepBitsPerSecond ?? 0) * (1 + state.tolerance);
  if (gained && state.streams < state.maxStreams) return { action: 'add-streams', window: representative, basis };
  return { action: 'finish', window: representative, basis, stable };
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
