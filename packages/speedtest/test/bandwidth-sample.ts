import { meanEstimate } from '../src/stats/confidence';
import type { BandwidthResult } from '../src/types';

/**
 * A download the engine measured: 90 and 100 Mbit/s intervals (95 Mbit/s headline), 4 MB in 400 ms, stopped once
 * stable; for tests about what surrounds a measured direction (partial runs, a failed other direction).
 */
export const measuredDownload: BandwidthResult = {
  bitsPerSecond: meanEstimate([90e6, 100e6]),
  headlineBasisBitsPerSecond: [90e6, 100e6],
  headlineSource: 'intervals',
  streams: 2,
  stopReason: 'stable',
  clientBytes: 4_000_000,
  serverBytes: null,
  durationMs: 400,
};
