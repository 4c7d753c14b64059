import { defaultOptions, percentile, type RequestSample, type SpeedTestResult } from '@speedkit/speedtest';
import type { ChartConfiguration } from 'chart.js';
import { sizeBucket, sizeBucketOrder, tickLabel } from './format';

// Pure: the four charts' Chart.js configurations from a run's samples and the page's colours. Both drawing paths
// (the chart worker on an OffscreenCanvas, and the main-thread fallback) build them here, so they draw the same.

/** Colours the charts drew with, published for the e2e contrast check. */
export interface ChartColors {
  text: string;
  grid: string;
  download: string;
  upload: string;
  idle: string;
  range: string;
  background: string;
}

/**
 * The part of a result the charts read: plain data, so it can be posted to the chart worker. `intervalMs`: the
 * configured goodput interval (ms), for a phase with a single interval (longer ones are measured from their starts).
 */
export type ChartInput = Pick<SpeedTestResult, 'samples' | 'intervals'> & { intervalMs?: number };

// Mixed charts (bar + line) do not fit one ChartConfiguration type parameter; the datasets are checked by hand.
export type AnyConfig = ChartConfiguration<'bar' | 'line' | 'scatter', unknown[]>;

export interface ChartSpec {
  /** The canvas element's id. */
  id: string;
  config: AnyConfig;
}

/** The canvases, in drawing order. */
export const chartIds = ['chart-download', 'chart-upload', 'chart-latency', 'chart-goodput'] as const;

/**
 * At most 2 device pixels per CSS pixel: a 3× phone screen fills 2.25× the pixels of 2× for a sharpness nobody reads a
 * chart for, and every draw pays for them (bench/page).
 */
export const chartPixelRatio = (devicePixelRatio: number): number => Math.min(2, devicePixelRatio || 1);

/** No animation (each frame would be another draw); sizing is the caller's (responsive on the main thread only). */
const common = (devicePixelRatio: number) => ({
  animation: false as const,
  maintainAspectRatio: false,
  devicePixelRatio: chartPixelRatio(devicePixelRatio),
});

/** A linear axis with a title and Intl-free tick labels. */
const axis = (title: string, extra: Record<string, unknown> = {}) => ({
  title: { display: true, text: title },
  ticks: { callback: tickLabel },
  ...extra,
});

/** Point data already in Chart.js's internal `{x, y}` form and sorted by x: it skips parsing and re-sorting. */
const preParsed = { parsing: false as const, normalized: true };

/** Dots per request, a min–max line and a p25–p75 box for each request-size class. Each request is one stream's. */
function perSize(samples: readonly RequestSample[], kind: 'download' | 'upload', colors: ChartColors, dpr: number) {
  const mbpsBySize = new Map<string, number[]>(sizeBucketOrder.map((bucket) => [bucket, []]));
  for (const sample of samples) {
    if (sample.kind !== kind || sample.bitsPerSecond === null) continue;
    mbpsBySize.get(sizeBucket(sample.bytes))?.push(sample.bitsPerSecond / 1e6);
  }
  const labels = sizeBucketOrder.filter((bucket) => (mbpsBySize.get(bucket)?.length ?? 0) > 0);
  const values = labels.map((label) => mbpsBySize.get(label) ?? []);
  const color = colors[kind];
  const config: AnyConfig = {
    type: 'bar',
    data: {
      labels,
      datasets: [
        {
          type: 'line',
          label: 'Requests (one stream each)',
          data: values.flatMap((list, index) => list.map((y) => ({ x: labels[index] as unknown as number, y }))),
          showLine: false,
          pointRadius: 3,
          pointBackgroundColor: color,
          borderColor: color,
        },
        {
          label: 'p25–p75',
          data: values.map((list) => [percentile(list, 0.25), percentile(list, 0.75)] as [number, number]),
          backgroundColor: `${color}55`,
          borderColor: color,
          borderWidth: 1,
          grouped: false,
          barPercentage: 0.5,
        },
        {
          label: 'Range',
          data: values.map((list) => [Math.min(...list), Math.max(...list)] as [number, number]),
          backgroundColor: colors.range,
          grouped: false,
          barThickness: 2,
        },
      ],
    },
    options: {
      ...common(dpr),
      scales: { y: axis('Mbps per stream', { beginAtZero: true }) },
      plugins: { legend: { position: 'bottom' } },
    },
  };
  return config;
}

function latency(samples: readonly RequestSample[], colors: ChartColors, dpr: number): AnyConfig {
  const series = (load: string) =>
    samples
      .filter((sample) => sample.kind === 'latency' && sample.load === load)
      .map((sample) => ({ x: sample.startMs / 1000, y: sample.pingMs }))
      .sort((a, b) => a.x - b.x);
  return {
    type: 'scatter',
    data: {
      datasets: [
        { label: 'Idle', data: series('idle'), backgroundColor: colors.idle, pointRadius: 3 },
        { label: 'Loaded (download)', data: series('download'), backgroundColor: colors.download, pointRadius: 3 },
        { label: 'Loaded (upload)', data: series('upload'), backgroundColor: colors.upload, pointRadius: 3 },
      ],
    },
    options: {
      ...common(dpr),
      ...preParsed,
      scales: {
        x: axis('seconds since start', { type: 'linear' }),
        y: axis('ms', { beginAtZero: true }),
      },
      plugins: { legend: { position: 'bottom' } },
    },
  };
}

/**
 * Pure: one direction's intervals as the corners of a step line (x in s, y in Mbit/s): each interval's value from its
 * start to its end, the last one closed by a point where it ends. Points at the starts alone drew the last interval
 * as a vertical tick (and a phase of one interval not at all), so the line sat below the headline it averages.
 * An interval's length is the gap between two starts (long paths use longer intervals than configured), else
 * `fallbackIntervalMs`.
 */
export function goodputSteps(
  intervals: ChartInput['intervals'],
  direction: 'download' | 'upload',
  fallbackIntervalMs: number,
): Array<{ x: number; y: number }> {
  const own = intervals.filter((interval) => interval.direction === direction).sort((a, b) => a.startMs - b.startMs);
  const last = own.at(-1);
  if (!last) return [];
  const before = own.at(-2);
  // The last step is as long as that interval lasted (its own length since results carry it; else the step before's).
  const lengthMs = last.durationMs ?? (before ? last.startMs - before.startMs : fallbackIntervalMs);
  const points = own.map((interval) => ({ x: interval.startMs / 1000, y: interval.bitsPerSecond / 1e6 }));
  return [...points, { x: (last.startMs + lengthMs) / 1000, y: last.bitsPerSecond / 1e6 }];
}

function goodput(input: ChartInput, colors: ChartColors, dpr: number): AnyConfig {
  const intervalMs = input.intervalMs ?? defaultOptions.intervalMs;
  // 'after': a point's value holds until the next point, i.e. over the interval that starts there.
  const line = (direction: 'download' | 'upload', label: string) => ({
    label,
    data: goodputSteps(input.intervals, direction, intervalMs),
    borderColor: colors[direction],
    stepped: 'after' as const,
    pointRadius: 0,
  });
  return {
    type: 'line',
    data: {
      datasets: [line('download', 'Download'), line('upload', 'Upload')],
    },
    options: {
      ...common(dpr),
      ...preParsed,
      scales: {
        x: axis('seconds since start', { type: 'linear' }),
        y: axis('Mbps, all streams', { beginAtZero: true }),
      },
      plugins: { legend: { position: 'bottom' } },
    },
  };
}

/** One builder per canvas, in `chartIds` order: callers may build and draw one chart per task. */
export function chartBuilders(
  input: ChartInput,
  colors: ChartColors,
  devicePixelRatio: number,
): Array<{ id: (typeof chartIds)[number]; build: () => AnyConfig }> {
  return [
    { id: 'chart-download', build: () => perSize(input.samples, 'download', colors, devicePixelRatio) },
    { id: 'chart-upload', build: () => perSize(input.samples, 'upload', colors, devicePixelRatio) },
    { id: 'chart-latency', build: () => latency(input.samples, colors, devicePixelRatio) },
    { id: 'chart-goodput', build: () => goodput(input, colors, devicePixelRatio) },
  ];
}
