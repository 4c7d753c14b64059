import { mean, standardDeviation } from './summary';

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
 * The values left after dropping the lowest `lowFraction` and highest `highFraction` (rounded down); by default the
 * middle half, whose mean is the interquartile mean. Symmetric on purpose: Ookla's 30%-low/10%-high rule was tried
 * and read uploads on a shaped 10 Mbit/s link 8% high, because spreading each upload over its duration makes
 * interval noise symmetric and an asymmetric trim then biases upward.
 */
export function trimmed(values: readonly number[], lowFraction = 0.25, highFraction = 0.25): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  const low = Math.floor(sorted.length * lowFraction);
  const high = Math.floor(sorted.length * highFraction);
  return sorted.slice(low, sorted.length - high);
}

/**
 * True when `values` lie above `reference` by more than `tolerance` (relative to the reference's mean) and by more
 * than their noise: two standard errors of the difference of the two means. Goodput intervals on a lossy long path
 * swing widely (5 Mbit/s, 200 ms, 0.5 % loss: 0.1–15 Mbit/s in 400 ms intervals, as losses hold bytes back and
 * release them), and a 5 % test alone then called a window "rising" or a doubling of streams "a gain" at random.
 */
export function clearlyAbove(values: readonly number[], reference: readonly number[], tolerance: number): boolean {
  const valuesMean = mean(values);
  const referenceMean = mean(reference);
  if (!(valuesMean > referenceMean * (1 + tolerance))) return false;
  const standardError = Math.sqrt(
    standardDeviation(values) ** 2 / values.length + standardDeviation(reference) ** 2 / reference.length,
  );
  return valuesMean - referenceMean > 2 * standardError;
}
