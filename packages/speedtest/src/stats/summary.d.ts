/**
 * Percentile with linear interpolation between the closest ranks (the method @cloudflare/speedtest and
 * spreadsheets use): rank = p·(n−1). Returns NaN for no values.
 * @param values any order; not modified
 * @param fraction 0..1 (0.5 = median, 0.9 = p90)
 */
export declare function percentile(values: readonly number[], fraction: number): number;
export declare const median: (values: readonly number[]) => number;
export declare function mean(values: readonly number[]): number;
/** Sample standard deviation (n−1); 0 for fewer than two values. */
export declare function standardDeviation(values: readonly number[]): number;
/** Everything the SPA shows when a metric is clicked. */
export interface Summary {
    count: number;
    mean: number;
    median: number;
    min: number;
    max: number;
    p25: number;
    p75: number;
    p90: number;
}
export declare function summarize(values: readonly number[]): Summary;
