import type { GoodputInterval, RequestSample } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { type ChartColors, chartBuilders, chartIds, chartPixelRatio, goodputSteps } from '../src/chart-configs';
import { chartEventType, forwardedEvents } from '../src/chart-messages';

const colors: ChartColors = {
  text: '#374151',
  grid: '#d1d5db',
  download: '#1d4ed8',
  upload: '#b45309',
  idle: '#15803d',
  range: '#4b5563',
  background: '#ffffff',
};

const sample = (kind: RequestSample['kind'], bytes: number, startMs: number, value: number): RequestSample => ({
  kind,
  bytes,
  receivedBytes: bytes,
  startMs,
  durationMs: 10,
  bitsPerSecond: kind === 'latency' ? null : value,
  ttfbMs: 5,
  serverMs: null,
  pingMs: kind === 'latency' ? value : 5,
  parallelStreams: 1,
  load: kind === 'latency' ? 'idle' : kind,
  timingSource: 'clock',
});

const samples = [
  sample('download', 100_000, 100, 80e6),
  sample('download', 2_000_000, 200, 400e6),
  sample('download', 3_000_000, 300, 200e6),
  sample('upload', 2_000_000, 400, 100e6),
  sample('latency', 0, 50, 12),
  sample('latency', 0, 20, 9),
];
const intervals: GoodputInterval[] = [
  { direction: 'download', startMs: 200, bitsPerSecond: 300e6, streams: 2 },
  { direction: 'download', startMs: 100, bitsPerSecond: 100e6, streams: 1 },
];

describe('chartBuilders', () => {
  const built = chartBuilders({ samples, intervals }, colors, 3);
  const config = (id: string) => built.find((entry) => entry.id === id)?.build();

  it('builds the four canvases in drawing order', () => {
    expect(built.map((entry) => entry.id)).toEqual([...chartIds]);
  });

  it('groups each direction per request-size class: dots, p25–p75 box and min–max range in Mbps', () => {
    const download = config('chart-download');
    expect(download?.data.labels).toEqual(['< 1 MB', '1 MB+']);
    const [dots, box, range] = download?.data.datasets ?? [];
    expect(dots?.data).toHaveLength(3);
    expect(box?.data[1]).toEqual([250, 350]);
    expect(range?.data[1]).toEqual([200, 400]);
    expect(config('chart-upload')?.data.labels).toEqual(['1 MB+']);
  });

  it('sorts pre-parsed points by time in seconds, and caps the pixel ratio at 2', () => {
    expect(config('chart-latency')?.data.datasets[0]?.data).toEqual([
      { x: 0.02, y: 9 },
      { x: 0.05, y: 12 },
    ]);
    expect(config('chart-goodput')?.data.datasets[0]?.data).toEqual([
      { x: 0.1, y: 100 },
      { x: 0.2, y: 300 },
      { x: 0.3, y: 300 },
    ]);
    expect(config('chart-goodput')?.options?.devicePixelRatio).toBe(2);
    expect(chartPixelRatio(1)).toBe(1);
    expect(chartPixelRatio(0)).toBe(1);
  });
});

describe('goodputSteps', () => {
  it('closes the last interval with a point where it ends, so it draws as a step of its own width', () => {
    expect(goodputSteps(intervals, 'download', 250)).toEqual([
      { x: 0.1, y: 100 },
      { x: 0.2, y: 300 },
      { x: 0.3, y: 300 },
    ]);
  });

  it('draws a phase of one interval as a step as long as the configured interval', () => {
    const one: GoodputInterval[] = [{ direction: 'upload', startMs: 1000, bitsPerSecond: 50e6, streams: 1 }];
    expect(goodputSteps(one, 'upload', 250)).toEqual([
      { x: 1, y: 50 },
      { x: 1.25, y: 50 },
    ]);
  });

  it('draws the last step as long as that interval lasted, stretched on a long path', () => {
    const long: GoodputInterval[] = [
      { direction: 'download', startMs: 0, durationMs: 600, bitsPerSecond: 4e6, streams: 1 },
      { direction: 'download', startMs: 600, durationMs: 700, bitsPerSecond: 5e6, streams: 1 },
    ];
    expect(goodputSteps(long, 'download', 125).at(-1)).toEqual({ x: 1.3, y: 5 });
  });

  it('has nothing to draw for a direction without intervals', () => {
    expect(goodputSteps(intervals, 'upload', 250)).toEqual([]);
  });

  it('holds each value over the interval that starts at its point', () => {
    const built = chartBuilders({ samples, intervals, intervalMs: 100 }, colors, 1);
    const goodput = built.find((entry) => entry.id === 'chart-goodput')?.build();
    const [download] = goodput?.data.datasets ?? [];
    expect((download as { stepped?: unknown } | undefined)?.stepped).toBe('after');
  });
});

describe('forwarded events', () => {
  it('cover Chart.js default events and map touch to mouse as its DOM platform does', () => {
    expect([...forwardedEvents].sort()).toEqual(['click', 'mousemove', 'mouseout', 'touchmove', 'touchstart']);
    expect(chartEventType.touchstart).toBe('mousedown');
    expect(chartEventType.touchmove).toBe('mousemove');
  });
});
