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
 * Relative half-widths (fractions of the value) that separate the levels, and absolute half-widths that count as
 * precise enough whatever the value (timer resolution for small latencies).
 */
export interface LevelRule {
  high: number;
  medium: number;
  absoluteHigh: number;
  absoluteMedium: number;
}

/** Goodput: repeatable within 5% is high, within 15% medium. */
export const rateRule: LevelRule = { high: 0.05, medium: 0.15, absoluteHigh: 0, absoluteMedium: 0 };

/**
 * Latency medians. The rate rule read "low" on every latency card in 7 of 7 runs, and the sample count was not the
 * cause: pings under load spread over 30–100% of their median (that spread is what bufferbloat is), so a median
 * within ±5% would take hundreds of pings, not the 15–60 a phase has room for. 10% / 25% (or 1 ms / 3 ms) still
 * separate a steady link from a noisy one: a repeat run reads within about that much.
 */
export const latencyRule: LevelRule = { high: 0.1, medium: 0.25, absoluteHigh: 1, absoluteMedium: 3 };

/** Level from the interval's half-width, relative to the value or absolute (see `LevelRule`). */
export function levelOf(value: number, halfWidth: number, rule: LevelRule = rateRule): ConfidenceLevel {
  if (!Number.isFinite(halfWidth) || !(value > 0)) return 'low';
  if (halfWidth <= rule.absoluteHigh || halfWidth / value <= rule.high) return 'high';
  return halfWidth <= rule.absoluteMedium || halfWidth / value <= rule.medium ? 'medium' : 'low';
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
 * Median with a distribution-free 95% interval from order statistics: the r-th and s-th smallest values with
 * r = ⌊n/2 − 0.98·√n⌋ and s = ⌈n/2 + 1 + 0.98·√n⌉ (1-based; the normal approximation to the binomial). Latency
 * samples are skewed, so a mean ± sd interval would mislead. Fewer than 5 samples have no useful interval.
 */
export function medianEstimate(values: readonly number[], rule: LevelRule = latencyRule): Estimate {
  const count = values.length;
  const value = median(values);
  if (count === 0) return { value, low: Number.NaN, high: Number.NaN, level: 'low', sampleCount: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const spread = 0.98 * Math.sqrt(count);
  const lowIndex = Math.max(0, Math.floor(count / 2 - spread) - 1);
  const highIndex = Math.min(count - 1, Math.ceil(count / 2 + 1 + spread) - 1);
  const low = sorted[lowIndex] as number;
  const high = sorted[highIndex] as number;
  const halfWidth = count < 5 ? Number.POSITIVE_INFINITY : Math.max(value - low, high - value);
  return { value, low, high, level: levelOf(value, halfWidth, rule), sampleCount: count };
}

const rank: Record<ConfidenceLevel, number> = { low: 0, medium: 1, high: 2 };

/**
 * Lowers an estimate's level to at most `ceiling`. A bandwidth phase stopped by its budget never met the stability
 * criterion, so a tight interval there (one long request spread evenly over several intervals) must not read "high".
 */
export function capLevel(estimate: Estimate, ceiling: ConfidenceLevel): Estimate {
  return rank[estimate.level] > rank[ceiling] ? { ...estimate, level: ceiling } : estimate;
}
