import type { SpeedTestOptions, SpeedTestResult } from '@speedkit/speedtest';
import { formatBitsPerSecond, formatBytes, formatMs } from './format';
import { lossNotice, maxTestBytes } from './notice';

/** The part of @cloudflare/speedtest's result the comparison reads (bit/s and ms, like ours). */
export interface BaselineFigures {
  summary: {
    download?: number;
    upload?: number;
    latency?: number;
    jitter?: number;
    downLoadedLatency?: number;
    upLoadedLatency?: number;
  };
  wallMs: number;
  bytes: { download: number; upload: number };
}

export interface ComparisonRow {
  key: string;
  label: string;
  baseline: string;
  ours: string;
}

const pending = 'running…';
/** The library reports 0 ms for a loaded latency it never measured (no loaded pings): that is "—", not a figure. */
const measuredMs = (ms: number | undefined) => (ms !== undefined && ms > 0 ? ms : undefined);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Pure: one row per figure, both engines in the same units and formatting; a run not finished reads "running…". */
export function comparisonRows(baseline: BaselineFigures | null, ours: SpeedTestResult | null): ComparisonRow[] {
  const theirs = <T>(pick: (value: BaselineFigures) => T, format: (value: T) => string) =>
    baseline ? format(pick(baseline)) : pending;
  const mine = <T>(pick: (value: SpeedTestResult) => T, format: (value: T) => string) =>
    ours ? format(pick(ours)) : pending;
  return [
    {
      key: 'download',
      label: 'Download',
      baseline: theirs((b) => b.summary.download, formatBitsPerSecond),
      ours: mine((o) => o.download?.bitsPerSecond.value, formatBitsPerSecond),
    },
    {
      key: 'upload',
      label: 'Upload',
      baseline: theirs((b) => b.summary.upload, formatBitsPerSecond),
      ours: mine((o) => o.upload?.bitsPerSecond.value, formatBitsPerSecond),
    },
    {
      key: 'latency',
      label: 'Latency (idle)',
      baseline: theirs((b) => measuredMs(b.summary.latency), formatMs),
      ours: mine((o) => o.latency.idleMs.value, formatMs),
    },
    {
      key: 'jitter',
      label: 'Jitter',
      baseline: theirs((b) => measuredMs(b.summary.jitter), formatMs),
      ours: mine((o) => o.latency.jitterMs, formatMs),
    },
    {
      key: 'loadedDown',
      label: 'Latency, download load',
      baseline: theirs((b) => measuredMs(b.summary.downLoadedLatency), formatMs),
      ours: mine((o) => o.latency.downloadLoadedMs?.value, formatMs),
    },
    {
      key: 'loadedUp',
      label: 'Latency, upload load',
      baseline: theirs((b) => measuredMs(b.summary.upLoadedLatency), formatMs),
      ours: mine((o) => o.latency.uploadLoadedMs?.value, formatMs),
    },
    {
      key: 'bytes',
      label: 'Data used',
      baseline: theirs((b) => b.bytes.download + b.bytes.upload, formatBytes),
      ours: mine((o) => o.totalBytes.download + o.totalBytes.upload, formatBytes),
    },
    {
      // Without speedkit's packet-loss step: the library's list here has none, so the two would not compare.
      key: 'duration',
      label: 'Test duration (without the packet-loss step)',
      baseline: theirs((b) => b.wallMs, seconds),
      ours: mine((o) => o.durationMs - (o.loss?.durationMs ?? 0), seconds),
    },
    {
      key: 'lossDuration',
      label: 'Packet-loss step',
      baseline: theirs(
        () => 'not run',
        (text) => text,
      ),
      ours: mine(
        (o) => o.loss?.durationMs,
        (ms) => (ms === undefined ? 'not measured' : seconds(ms)),
      ),
    },
  ];
}

/** The part of a @cloudflare/speedtest measurement the byte count reads. */
export interface MeasurementBytes {
  type: string;
  bytes?: number;
  count?: number;
}

/** Pure: payload bytes a measurement list requests at most, per direction (bytes × count of each step). */
export function measurementBytes(measurements: readonly MeasurementBytes[]): { download: number; upload: number } {
  const total = { download: 0, upload: 0 };
  for (const step of measurements) {
    if (step.type === 'download' || step.type === 'upload') total[step.type] += (step.bytes ?? 0) * (step.count ?? 1);
  }
  return total;
}

/**
 * Pure: the comparison page's data notice, from the list the library will run and speedkit's options (the "over
 * 1 GB" it used to say was the library's default list, whatever was chosen).
 */
export function baselineNotice(
  measurements: readonly MeasurementBytes[],
  ours: SpeedTestOptions,
  compare: boolean,
): string {
  const theirs = measurementBytes(measurements);
  const library = `@cloudflare/speedtest requests up to ${formatBytes(theirs.download + theirs.upload)} (${formatBytes(theirs.download)} down, ${formatBytes(theirs.upload)} up)`;
  if (!compare) return `The test starts by itself: ${library}.`;
  return `Both tests start by themselves, one after the other: ${library}; then speedkit uses up to ${formatBytes(maxTestBytes(ours))} (${formatBytes(ours.maxBytesPerDirection)} per direction).${lossNotice(ours)}`;
}
