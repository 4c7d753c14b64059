import { percentile, type SpeedTestResult } from '@speedkit/speedtest';
import { Chart, type ChartConfiguration, registerables } from 'chart.js';
import { sizeBucket, sizeBucketOrder } from './format';

Chart.register(...registerables);

const colors = { download: '#1d4ed8', upload: '#b45309', idle: '#15803d', range: '#6b7280' };
const charts = new Map<string, Chart>();

// Mixed charts (bar + line) do not fit one ChartConfiguration type parameter; the datasets are checked by hand.
type AnyConfig = ChartConfiguration<'bar' | 'line' | 'scatter', unknown[]>;

function draw(id: string, config: AnyConfig): void {
  const canvas = document.getElementById(id) as HTMLCanvasElement | null;
  if (!canvas) return;
  charts.get(id)?.destroy();
  charts.set(id, new Chart(canvas, config as ChartConfiguration));
}

const common = { animation: false as const, responsive: true, maintainAspectRatio: false };

/** Dots per request, a min–max line and a p25–p75 box for each request-size class. */
function drawPerSize(id: string, result: SpeedTestResult, kind: 'download' | 'upload'): void {
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
          label: 'Requests',
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
      scales: { y: { title: { display: true, text: 'Mbps' }, beginAtZero: true } },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

function drawLatency(result: SpeedTestResult): void {
  const series = (load: string) =>
    result.samples
      .filter((sample) => sample.kind === 'latency' && sample.load === load)
      .map((sample) => ({ x: sample.startMs / 1000, y: sample.pingMs }));
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
      scales: {
        x: { title: { display: true, text: 'seconds since start' } },
        y: { title: { display: true, text: 'ms' }, beginAtZero: true },
      },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

function drawGoodput(result: SpeedTestResult): void {
  const series = (direction: string) =>
    result.intervals
      .filter((interval) => interval.direction === direction)
      .map((interval) => ({ x: interval.startMs / 1000, y: interval.bitsPerSecond / 1e6 }));
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
      scales: {
        x: { type: 'linear', title: { display: true, text: 'seconds since start' } },
        y: { title: { display: true, text: 'Mbps' }, beginAtZero: true },
      },
      plugins: { legend: { position: 'bottom' } },
    },
  });
}

export function renderCharts(result: SpeedTestResult): void {
  drawPerSize('chart-download', result, 'download');
  drawPerSize('chart-upload', result, 'upload');
  drawLatency(result);
  drawGoodput(result);
}
