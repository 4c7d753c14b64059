import { median, type RequestSample, type SpeedTestResult } from '@speedkit/speedtest';
import type { chartIds } from './chart-configs';
import { formatBitsPerSecond, formatMs, sizeBucket, sizeBucketOrder } from './format';

// The charts' text alternative: one or two sentences per chart with what it shows in numbers, under the chart and
// referenced by its canvas (aria-describedby). A canvas is a picture to a screen reader; its label names the chart,
// and these say what is in it. Every figure is also in the details panel and the CSV.

type ChartId = (typeof chartIds)[number];

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

const range = (values: readonly number[], format: (value: number) => string) =>
  values.length === 1
    ? format(values[0] as number)
    : `${format(Math.min(...values))} to ${format(Math.max(...values))}, median ${format(median(values))}`;

/** Pure: the per-request chart of one direction in words: how many requests, of which sizes, at what rates. */
export function perRequestSummary(samples: readonly RequestSample[], kind: 'download' | 'upload'): string {
  const requests = samples.filter((sample) => sample.kind === kind && sample.bitsPerSecond !== null);
  const name = kind === 'download' ? 'Download' : 'Upload';
  if (requests.length === 0) return `${name}: no request with a rate.`;
  const sizes = sizeBucketOrder.filter((bucket) => requests.some((sample) => sizeBucket(sample.bytes) === bucket));
  const rates = requests.map((sample) => sample.bitsPerSecond as number);
  return `${name}: ${plural(requests.length, 'request')} (${sizes.join(', ')}), per stream ${range(rates, formatBitsPerSecond)}.`;
}

/** Pure: the latency timeline in words: idle pings and pings under each load, with their medians and spread. */
export function latencySummary(samples: readonly RequestSample[]): string {
  const parts = (['idle', 'download', 'upload'] as const).flatMap((load) => {
    const pings = samples.filter((sample) => sample.kind === 'latency' && sample.load === load).map((s) => s.pingMs);
    if (pings.length === 0) return [];
    const label = load === 'idle' ? 'idle' : `under ${load} load`;
    return [`${plural(pings.length, 'ping')} ${label}, ${range(pings, formatMs)}`];
  });
  return parts.length > 0 ? `${parts.join('; ')}.` : 'No pings.';
}

/** Pure: the goodput chart in words: per direction, how many intervals and their range, all streams together. */
export function goodputSummary(result: Pick<SpeedTestResult, 'intervals'>): string {
  const parts = (['download', 'upload'] as const).flatMap((direction) => {
    const rates = result.intervals.filter((i) => i.direction === direction).map((interval) => interval.bitsPerSecond);
    if (rates.length === 0) return [];
    return [`${direction} ${plural(rates.length, 'interval')}, ${range(rates, formatBitsPerSecond)}`];
  });
  return parts.length > 0 ? `All streams together: ${parts.join('; ')}.` : 'No goodput intervals.';
}

/** Pure: every chart's text alternative, by canvas id. */
export function chartSummaries(result: SpeedTestResult): Record<ChartId, string> {
  return {
    'chart-download': perRequestSummary(result.samples, 'download'),
    'chart-upload': perRequestSummary(result.samples, 'upload'),
    'chart-latency': latencySummary(result.samples),
    'chart-goodput': goodputSummary(result),
  };
}

/** Writes the summaries under the charts (`<p id="<canvas id>-summary">`); null empties them for a new run. */
export function renderChartSummaries(result: SpeedTestResult | null): void {
  const summaries = result ? chartSummaries(result) : null;
  for (const element of document.querySelectorAll<HTMLElement>('[data-chart-summary]')) {
    const id = element.dataset.chartSummary as ChartId;
    element.textContent = summaries?.[id] ?? '';
  }
}
