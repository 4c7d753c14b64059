import type { RequestSample } from './types';

/** CSV columns, one row per request, in this order. */
export const csvColumns = [
  'direction',
  'load',
  'bytes',
  'received_bytes',
  'start_ms',
  'duration_ms',
  'bits_per_second',
  'ttfb_ms',
  'server_ms',
  'ping_ms',
  'parallel_streams',
  'timing_source',
] as const;

const cell = (value: string | number | null): string => {
  if (value === null) return '';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
};

/** RFC 4180 CSV of every sample (CRLF line ends, header row first, empty cell for unknown). */
export function samplesToCsv(samples: readonly RequestSample[]): string {
  const rows = samples.map((sample) =>
    [
      sample.kind,
      sample.load,
      sample.bytes,
      sample.receivedBytes,
      sample.startMs,
      sample.durationMs,
      sample.bitsPerSecond,
      sample.ttfbMs,
      sample.serverMs,
      sample.pingMs,
      sample.parallelStreams,
      sample.timingSource,
    ]
      .map(cell)
      .join(','),
  );
  return `${[csvColumns.join(','), ...rows].join('\r\n')}\r\n`;
}
