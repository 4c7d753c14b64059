import type { RequestSample } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { goodputSummary, latencySummary, perRequestSummary } from '../src/chart-summary';

const sample = (kind: RequestSample['kind'], fields: Partial<RequestSample>): RequestSample => ({
  kind,
  bytes: 0,
  receivedBytes: 0,
  startMs: 0,
  durationMs: 10,
  bitsPerSecond: null,
  ttfbMs: 10,
  serverMs: 0,
  pingMs: 10,
  parallelStreams: 1,
  load: 'idle',
  timingSource: 'resource-timing',
  ...fields,
});

describe('chart text alternatives', () => {
  it('give the per-request chart its request count, size classes and the per-stream range with the median', () => {
    const samples = [
      sample('download', { bytes: 2e6, bitsPerSecond: 40e6, load: 'download' }),
      sample('download', { bytes: 20e6, bitsPerSecond: 90e6, load: 'download' }),
      sample('download', { bytes: 20e6, bitsPerSecond: 100e6, load: 'download' }),
      sample('upload', { bytes: 1e6, bitsPerSecond: 5e6, load: 'upload' }),
    ];
    expect(perRequestSummary(samples, 'download')).toBe(
      'Download: 3 requests (1 MB+, 10 MB+), per stream 40.0 Mbps to 100.0 Mbps, median 90.0 Mbps.',
    );
  });

  it('say a direction without rated requests has none, rather than leaving the chart undescribed', () => {
    expect(perRequestSummary([], 'upload')).toBe('Upload: no request with a rate.');
  });

  it('give the latency timeline per load, leaving out loads without pings', () => {
    const samples = [
      sample('latency', { pingMs: 10 }),
      sample('latency', { pingMs: 12 }),
      sample('latency', { pingMs: 40, load: 'download' }),
    ];
    expect(latencySummary(samples)).toBe(
      '2 pings idle, 10.0 ms to 12.0 ms, median 11.0 ms; 1 ping under download load, 40.0 ms.',
    );
  });

  it('give the goodput chart per direction, all streams together', () => {
    const intervals = [
      { direction: 'upload' as const, startMs: 0, bitsPerSecond: 8e6, streams: 2 },
      { direction: 'upload' as const, startMs: 100, bitsPerSecond: 10e6, streams: 2 },
    ];
    expect(goodputSummary({ intervals })).toBe(
      'All streams together: upload 2 intervals, 8.0 Mbps to 10.0 Mbps, median 9.0 Mbps.',
    );
  });
});
