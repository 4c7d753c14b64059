import { type Estimate, type SpeedTestResult, summarize } from '@speedkit/speedtest';
import { formatBitsPerSecond, formatMs } from './format';

export type Metric = 'download' | 'upload' | 'latency' | 'jitter' | 'loadedDown' | 'loadedUp' | 'rpm';

interface MetricData {
  title: string;
  values: number[];
  format: (value: number) => string;
  basis: string;
  estimate: Estimate | null;
}

const pings = (result: SpeedTestResult, load: string) =>
  result.samples.filter((sample) => sample.kind === 'latency' && sample.load === load).map((sample) => sample.pingMs);

const intervals = (result: SpeedTestResult, direction: string) =>
  result.intervals.filter((interval) => interval.direction === direction).map((interval) => interval.bitsPerSecond);

const rpm = (value: number) => `${Math.round(value)} RPM`;

/** The raw values behind each headline figure. */
export function metricData(result: SpeedTestResult, metric: Metric): MetricData {
  const idle = pings(result, 'idle');
  switch (metric) {
    case 'download':
    case 'upload':
      return {
        title: metric === 'download' ? 'Download' : 'Upload',
        values: intervals(result, metric),
        format: formatBitsPerSecond,
        basis: `goodput intervals of ${result.options.intervalMs} ms, all streams together`,
        estimate: result[metric]?.bitsPerSecond ?? null,
      };
    case 'latency':
      return {
        title: 'Idle latency',
        values: idle,
        format: formatMs,
        basis: 'idle pings',
        estimate: result.latency.idleMs,
      };
    case 'jitter':
      return {
        title: 'Jitter',
        values: idle.slice(1).map((value, index) => Math.abs(value - (idle[index] as number))),
        format: formatMs,
        basis: 'differences between consecutive idle pings',
        estimate: null,
      };
    case 'loadedDown':
      return {
        title: 'Latency under download load',
        values: pings(result, 'download'),
        format: formatMs,
        basis: 'pings while downloading',
        estimate: result.latency.downloadLoadedMs,
      };
    case 'loadedUp':
      return {
        title: 'Latency under upload load',
        values: pings(result, 'upload'),
        format: formatMs,
        basis: 'pings while uploading',
        estimate: result.latency.uploadLoadedMs,
      };
    case 'rpm':
      return {
        title: 'Responsiveness (round trips per minute under load)',
        values: [...pings(result, 'download'), ...pings(result, 'upload')]
          .filter((ms) => ms > 0)
          .map((ms) => 60_000 / ms),
        format: rpm,
        basis: '60000 / each loaded ping',
        estimate: null,
      };
  }
}

/** Fills the details panel for one metric. */
export function renderDetails(container: HTMLElement, result: SpeedTestResult, metric: Metric): void {
  const data = metricData(result, metric);
  const summary = summarize(data.values);
  const rows: [string, string][] = [
    ['Average', data.format(summary.mean)],
    ['Median', data.format(summary.median)],
    ['Minimum', data.format(summary.min)],
    ['Maximum', data.format(summary.max)],
    ['90th percentile', data.format(summary.p90)],
    ['Samples', String(summary.count)],
  ];
  if (data.estimate) {
    rows.push([
      'Confidence',
      `${data.estimate.level} (95% interval ${data.format(data.estimate.low)} – ${data.format(data.estimate.high)})`,
    ]);
  }
  const heading = document.createElement('h3');
  heading.textContent = data.title;
  const basis = document.createElement('p');
  basis.className = 'hint';
  basis.textContent = `From ${data.basis}.`;
  const list = document.createElement('dl');
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    list.append(dt, dd);
  }
  container.replaceChildren(heading, basis, list);
}
