import type { SpeedTestOptions } from './types';

/**
 * Defaults chosen for real links up to ~1 Gbit/s: four 250 ms intervals within 5% is ndt7's idea of "stable"; the
 * byte budget is a third of the anchor's worst case (≈ 969 MB down) and still gives a gigabit link ~2.4 s; 12 s per
 * direction bounds a slow, jittery link.
 */
export const defaultOptions: SpeedTestOptions = {
  serverUrl: '',
  idlePings: 20,
  maxStreams: 4,
  intervalMs: 250,
  stableIntervals: 4,
  stableTolerance: 0.05,
  maxBytesPerDirection: 300_000_000,
  maxDurationPerDirectionMs: 12_000,
  targetRequestMs: 500,
  minRequestBytes: 100_000,
  maxDownloadRequestBytes: 100_000_000,
  maxUploadRequestBytes: 25_000_000,
  loadedPingIntervalMs: 200,
  directions: ['download', 'upload'],
  pauseWhenHidden: true,
  packetLoss: true,
  lossPackets: 3000,
  uploadTransport: 'auto',
};

/** Defaults overlaid with the caller's options; invalid numbers fall back to the default. */
export function resolveOptions(options: Partial<SpeedTestOptions> = {}): SpeedTestOptions {
  const resolved: SpeedTestOptions = { ...defaultOptions };
  for (const [key, value] of Object.entries(options) as [keyof SpeedTestOptions, unknown][]) {
    const fallback = defaultOptions[key];
    if (typeof fallback === 'number') {
      if (typeof value === 'number' && Number.isFinite(value) && value >= 0) Object.assign(resolved, { [key]: value });
    } else if (value !== undefined) {
      Object.assign(resolved, { [key]: value });
    }
  }
  // A zero budget would measure nothing and divide by zero in the progress; it falls back like any invalid number.
  for (const key of ['maxBytesPerDirection', 'maxDurationPerDirectionMs'] as const) {
    if (!(resolved[key] > 0)) resolved[key] = defaultOptions[key];
  }
  resolved.idlePings = Math.max(1, Math.round(resolved.idlePings));
  resolved.maxStreams = Math.max(1, Math.round(resolved.maxStreams));
  resolved.stableIntervals = Math.max(2, Math.round(resolved.stableIntervals));
  resolved.intervalMs = Math.max(20, resolved.intervalMs);
  resolved.serverUrl = resolved.serverUrl.replace(/\/+$/, '');
  if (resolved.uploadTransport !== 'http' && resolved.uploadTransport !== 'websocket')
    resolved.uploadTransport = 'auto';
  return resolved;
}
