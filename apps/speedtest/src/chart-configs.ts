import { percentile, type RequestSample, type SpeedTestResult } from '@speedkit/speedtest';
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

/** The part of a result the charts read: plain data, so it can be posted to the chart worker. */
export type ChartInput = Pick<SpeedTestResult, 'samples' | 'intervals'>;

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

function goodput(intervals: ChartInput['intervals'], colors: ChartColors, dpr: number): AnyConfig {
  const series = (direction: string) =>
    intervals
      .filter((interval) => interval.direction === direction)
      .map((interval) => ({ x: interval.startMs / 1000, y: interval.bitsPerSecond / 1e6 }))
      .sort((a, b) => a.x - b.x);
  return {
    type: 'line',
    data: {
      datasets: [
        { label: 'Download', data: series('download'), borderColor: colors.download, stepped: true, pointRadius: 0 },
        { label: 'Upload', data: series('upload'), borderColor: colors.upload, stepped: true, pointRadius: 0 },
      ],
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
    { id: 'chart-goodput', build: () => goodput(input.intervals, colors, devicePixelRatio) },
  ];
}
