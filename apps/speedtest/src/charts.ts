import { nextTask, percentile, type SpeedTestResult } from '@speedkit/speedtest';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
} from 'chart.js';
import { sizeBucket, sizeBucketOrder, tickLabel } from './format';

// Only what the four charts use: registering everything doubled the script's parse and run time on phones.
Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Tooltip,
);

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

declare global {
  interface Window {
    __speedkitChartColors?: ChartColors;
  }
}

/** Chart colours come from CSS custom properties so the dark scheme gets its own, readable ones. */
function readColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: read('--chart-text'),
    grid: read('--chart-grid'),
    download: read('--chart-download'),
    upload: read('--chart-upload'),
    idle: read('--chart-idle'),
    range: read('--chart-range'),
    background: read('--bg'),
  };
}

const charts = new Map<string, Chart>();

// Mixed charts (bar + line) do not fit one ChartConfiguration type parameter; the datasets are checked by hand.
type AnyConfig = ChartConfiguration<'bar' | 'line' | 'scatter', unknown[]>;

function draw(id: string, config: AnyConfig): void {
  const canvas = document.getElementById(id) as HTMLCanvasElement | null;
  if (!canvas) return;
  charts.get(id)?.destroy();
  charts.set(id, new Chart(canvas, config as ChartConfiguration));
}

/** Removes every chart: a new run starts with empty chart boxes, never the previous run's. */
export function clearCharts(): void {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
}

/**
 * No animation (each frame would be another draw), and at most 2 device pixels per CSS pixel: a 3× phone screen
 * fills 2.25× the pixels of 2× for a sharpness nobody reads a chart for, and every draw pays for them (bench/page).
 */
const common = {
  animation: false as const,
  responsive: true,
  maintainAspectRatio: false,
  devicePixelRatio: Math.min(2, globalThis.devicePixelRatio || 1),
};

/** A linear axis with a title and Intl-free tick labels. */
const axis = (title: string, extra: Record<string, unknown> = {}) => ({
  title: { display: true, text: title },
  ticks: { callback: tickLabel },
  ...extra,
});

/** Point data already in Chart.js's internal `{x, y}` form and sorted by x: it skips parsing and re-sorting. */
const preParsed = { parsing: false as const, normalized: true };

/** Dots per request, a min–max line and a p25–p75 box for each request-size class. Each request is one stream's. */
function drawPerSize(id: string, result: SpeedTestResult, kind: 'download' | 'upload', colors: ChartColors): void {
  const mbpsBySize = new Map<string, number[]>(sizeBucketOrder.map((bucket) => [bucket, []]));
  for (const sample of result.samples) {
    if (sample.kind !== kind || sample.bitsPerSecond === null) continue;
    mbpsBySize.get(sizeBucket(sample.bytes))?.push(sample.bitsPerSecond / 1e6);
  }
  const labels = sizeBucketOrder.filter((bucket) => (mbpsBySize.get(bucket)?.length ?? 0) > 0);
  const values = labels.map((label) => mbpsBySize.get(label) ?? []);
  const color = colors[kind];
  draw(id, {
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
      ...common,
      scales: { y: axis('Mbps per stream', { beginAtZero: true }) },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

function drawLatency(result: SpeedTestResult, colors: ChartColors): void {
  const series = (load: string) =>
    result.samples
      .filter((sample) => sample.kind === 'latency' && sample.load === load)
      .map((sample) => ({ x: sample.startMs / 1000, y: sample.pingMs }))
      .sort((a, b) => a.x - b.x);
  draw('chart-latency', {
    type: 'scatter',
    data: {
      datasets: [
        { label: 'Idle', data: series('idle'), backgroundColor: colors.idle, pointRadius: 3 },
        { label: 'Loaded (download)', data: series('download'), backgroundColor: colors.download, pointRadius: 3 },
        { label: 'Loaded (upload)', data: series('upload'), backgroundColor: colors.upload, pointRadius: 3 },
      ],
    },
    options: {
      ...common,
      ...preParsed,
      scales: {
        x: axis('seconds since start', { type: 'linear' }),
        y: axis('ms', { beginAtZero: true }),
      },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

function drawGoodput(result: SpeedTestResult, colors: ChartColors): void {
  const series = (direction: string) =>
    result.intervals
      .filter((interval) => interval.direction === direction)
      .map((interval) => ({ x: interval.startMs / 1000, y: interval.bitsPerSecond / 1e6 }))
      .sort((a, b) => a.x - b.x);
  draw('chart-goodput', {
    type: 'line',
    data: {
      datasets: [
        { label: 'Download', data: series('download'), borderColor: colors.download, stepped: true, pointRadius: 0 },
        { label: 'Upload', data: series('upload'), borderColor: colors.upload, stepped: true, pointRadius: 0 },
      ],
    },
    options: {
      ...common,
      ...preParsed,
      scales: {
        x: axis('seconds since start', { type: 'linear' }),
        y: axis('Mbps, all streams', { beginAtZero: true }),
      },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

/** Draws the four charts, one per task, so no single task blocks input for long. */
export async function renderCharts(result: SpeedTestResult, isCurrent: () => boolean): Promise<void> {
  const colors = readColors();
  Chart.defaults.color = colors.text;
  Chart.defaults.borderColor = colors.grid;
  const steps = [
    () => drawPerSize('chart-download', result, 'download', colors),
    () => drawPerSize('chart-upload', result, 'upload', colors),
    () => drawLatency(result, colors),
    () => drawGoodput(result, colors),
  ];
  for (const step of steps) {
    await nextTask();
    // A new run started meanwhile: its charts must not be overwritten by this one's.
    if (!isCurrent()) return;
    step();
  }
  window.__speedkitChartColors = colors;
}
