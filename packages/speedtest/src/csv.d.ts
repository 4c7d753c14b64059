import type { GoodputInterval, RequestSample, SpeedTestResult } from './types';
/**
 * CSV columns, in this order. One file holds three kinds of row (`record`): every request (`ping` or `transfer`),
 * every goodput interval (`interval`), and every figure the page shows (`summary`), so the file alone reproduces the
 * page. Columns that do not apply to a row are empty.
 */
export declare const csvColumns: readonly ["record", "direction", "load", "bytes", "received_bytes", "start_ms", "duration_ms", "bits_per_second", "ttfb_ms", "server_ms", "ping_ms", "parallel_streams", "timing_source", "in_headline", "metric", "value", "low", "high", "unit", "confidence", "sample_count", "basis"];
/**
 * Pure: which intervals the headline figure is the mean of. The basis holds copies of interval values, so each basis
 * value claims the first unclaimed interval with the same value (equal values give the same mean either way).
 */
export declare function headlineFlags(intervals: readonly GoodputInterval[], basis: readonly number[]): boolean[];
/** RFC 4180 CSV of every request only (CRLF line ends, header row first, empty cell for unknown). */
export declare function samplesToCsv(samples: readonly RequestSample[]): string;
/** RFC 4180 CSV of a whole result: every request, every goodput interval, then every figure shown on the page. */
export declare function resultToCsv(result: SpeedTestResult): string;
/**
 * Reads a file written by `resultToCsv` or `samplesToCsv` back: one record per row, keyed by the header's column
 * names, every value the text of its cell. Cells never hold line breaks (numbers and short labels only).
 */
export declare function csvRecords(csv: string): Record<string, string>[];
