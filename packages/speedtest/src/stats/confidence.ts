import { mean, median, standardDeviation } from './summary';

/** How far a figure can be trusted: high = repeatable within a few percent, low = take it as a rough guide. */
export type ConfidenceLevel = 'high' | 'medium' | 'low';

/** A figure with its 95% confidence interval and how many samples it rests on. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
  level: ConfidenceLevel;
  sampleCount: number;
}

/** Two-sided 95% Student t quantiles for 1..30 degrees of freedom; 1.96 beyond. */
const t95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export const tQuantile95 = (degreesOfFreedom: number): number => t95[degreesOfFreedom - 1] ?? 1.96;

/**
 * Level from the interval's half-width relative to the value: ≤ 5% high, ≤ 15% medium, else low. Latencies under
 * a few ms are limited by timer resolution, so an absolute half-width ≤ `absoluteSlack` also counts as high.
 */
export function levelOf(value: number, halfWidth: number, absoluteSlack = 0): ConfidenceLevel {
  if (!Number.isFinite(halfWidth) || !(value > 0)) return 'low';
  if (halfWidth <= absoluteSlack || halfWidth / value <= 0.05) return 'high';
  return halfWidth / value <= 0.15 ? 'medium' : 'low';
}

/**
 * Mean with a 95% interval computed on the log scale: [mean·e^−h, mean·e^+h] with h = t·(sd/mean)/√n, the t-based
 * relative standard error. A rate cannot be negative, and the symmetric interval (mean ± t·sd/√n) went below zero
 * whenever a few intervals swung widely (a user saw "−290323 kbps – 2.54 Gbps"); the log-scale interval is always
 * positive, matches the symmetric one to first order when the intervals agree, and widens upward when they do not.
 * The level is taken from the farther end's relative distance, e^h − 1.
 */
export function meanEstimate(values: readonly number[]): Estimate {
  const value = mean(values);
  if (values.length < 2 || !(value > 0)) {
    return {
      value,
      low: values.length === 0 ? Number.NaN : 0,
      high: values.length === 0 ? Number.NaN : Number.POSITIVE_INFINITY,
      level: 'low',
      sampleCount: values.length,
    };
  }
  const logHalfWidth = (tQuantile95(values.length - 1) * standardDeviation(values)) / value / Math.sqrt(values.length);
  const low = value * Math.exp(-logHalfWidth);
  const high = value * Math.exp(logHalfWidth);
  return { value, low, high, level: levelOf(value, high - value), sampleCount: values.length };
}

/**
 * Median with a distribution-free 95% interval from order statistics: ranks n/2 ± 0.98·√n (the normal
 * approximation to the binomial). Latency samples are skewed, so a mean ± sd interval would mislead.
 */
export function medianEstimate(values: readonly number[], absoluteSlackMs = 1): Estimate {
  const count = values.length;
  const value = median(values);
  if (count === 0) return { value, low: Number.NaN, high: Number.NaN, level: 'low', sampleCount: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const lowRank = Math.max(0, Math.floor(count / 2 - 0.98 * Math.sqrt(count)));
  const highRank = Math.min(count - 1, Math.ceil(count / 2 + 0.98 * Math.sqrt(count)) - 1);
  const low = sorted[lowRank] as number;
  const high = sorted[highRank] as number;
  const halfWidth = count < 5 ? Number.POSITIVE_INFINITY : Math.max(value - low, high - value);
  return { value, low, high, level: levelOf(value, halfWidth, absoluteSlackMs), sampleCount: count };
}

const rank: Record<ConfidenceLevel, number> = { low: 0, medium: 1, high: 2 };

/**
 * Lowers an estimate's level to at most `ceiling`. A bandwidth phase stopped by its budget never met the stability
 * criterion, so a tight interval there (one long request spread evenly over several intervals) must not read "high".
 */
export function capLevel(estimate: Estimate, ceiling: ConfidenceLevel): Estimate {
  return rank[estimate.level] > rank[ceiling] ? { ...estimate, level: ceiling } : estimate;
}
