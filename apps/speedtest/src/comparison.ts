import type { SpeedTestResult } from '@speedkit/speedtest';
import { formatBitsPerSecond, formatBytes, formatMs } from './format';

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
      key: 'duration',
      label: 'Test duration',
      baseline: theirs((b) => b.wallMs, seconds),
      ours: mine((o) => o.durationMs, seconds),
    },
  ];
}
