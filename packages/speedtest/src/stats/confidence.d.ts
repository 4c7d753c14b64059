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
export declare const tQuantile95: (degreesOfFreedom: number) => number;
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
export declare const rateRule: LevelRule;
/**
 * Latency medians. The rate rule read "low" on every latency card in 7 of 7 runs, and the sample count was not the
 * cause: pings under load spread over 30–100% of their median (that spread is what bufferbloat is), so a median
 * within ±5% would take hundreds of pings, not the 15–60 a phase has room for. 10% / 25% (or 1 ms / 3 ms) still
 * separate a steady link from a noisy one: a repeat run reads within about that much.
 */
export declare const latencyRule: LevelRule;
/** Level from the interval's half-width, relative to the value or absolute (see `LevelRule`). */
export declare function levelOf(value: number, halfWidth: number, rule?: LevelRule): ConfidenceLevel;
/**
 * Mean with a 95% interval computed on the log scale: [mean·e^−h, mean·e^+h] with h = t·(sd/mean)/√n, the t-based
 * relative standard error. A rate cannot be negative, and the symmetric interval (mean ± t·sd/√n) went below zero
 * whenever a few intervals swung widely (a user saw "−290323 kbps – 2.54 Gbps"); the log-scale interval is always
 * positive, matches the symmetric one to first order when the intervals agree, and widens upward when they do not.
 * The level is taken from the farther end's relative distance, e^h − 1.
 */
export declare function meanEstimate(values: readonly number[]): Estimate;
/**
 * Median with a distribution-free 95% interval from order statistics: the r-th and s-th smallest values with
 * r = ⌊n/2 − 0.98·√n⌋ and s = ⌈n/2 + 1 + 0.98·√n⌉ (1-based; the normal approximation to the binomial). Latency
 * samples are skewed, so a mean ± sd interval would mislead. Fewer than 5 samples have no useful interval.
 */
export declare function medianEstimate(values: readonly number[], rule?: LevelRule): Estimate;
/**
 * Lowers an estimate's level to at most `ceiling`. A bandwidth phase stopped by its budget never met the stability
 * criterion, so a tight interval there (one long request spread evenly over several intervals) must not read "high".
 */
export declare function capLevel(estimate: Estimate, ceiling: ConfidenceLevel): Estimate;
