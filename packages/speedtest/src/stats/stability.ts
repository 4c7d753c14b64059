import { mean } from './summary';

/** (max − min) / mean of a window: 0 for a flat line, 0.05 when the extremes are 5% of the mean apart. */
export function relativeSpread(values: readonly number[]): number {
  if (values.length === 0) return Number.POSITIVE_INFINITY;
  const average = mean(values);
  if (average <= 0) return Number.POSITIVE_INFINITY;
  return (Math.max(...values) - Math.min(...values)) / average;
}

/**
 * Goodput is stable when the last `windowSize` intervals all lie within `tolerance` of each other (relative to their
 * mean): the ndt7 / responsiveness-draft criterion, e.g. within 5% over 4 intervals.
 */
export function isStable(values: readonly number[], windowSize: number, tolerance: number): boolean {
  if (values.length < windowSize) return false;
  return relativeSpread(values.slice(-windowSize)) <= tolerance;
}

/**
 * The values left after dropping the slowest `lowFraction` and fastest `highFraction` (rounded down): Ookla's
 * published rule for throughput samples (30% / 10%). Dips (a busy client, a loss episode, slow start) pull a plain
 * mean down much more than rare bursts push it up, hence the asymmetry.
 */
export function trimmed(values: readonly number[], lowFraction = 0.3, highFraction = 0.1): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const low = Math.floor(sorted.length * lowFraction);
  const high = Math.floor(sorted.length * highFraction);
  return sorted.slice(low, sorted.length - high);
}
