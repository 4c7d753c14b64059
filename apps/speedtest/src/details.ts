import {
  type BandwidthResult,
  describeMissing,
  type Estimate,
  headlineIdlePings,
  type SpeedTestResult,
  STALL_MS,
  summarize,
  withoutStalls,
} from '@speedkit/speedtest';
import { failureSentence } from './direction-failure';
import { formatBitsPerSecond, formatBitsPerSecondRange, formatMs, formatMsRange, streamCount } from './format';

export type Metric = 'download' | 'upload' | 'latency' | 'jitter' | 'loadedDown' | 'loadedUp' | 'rpm';

interface MetricData {
  title: string;
  /** One sentence: which statistic of which values the card shows. */
  headline: string;
  /** Every value the statistic could have used, for the spread rows (e.g. every interval of the phase). */
  values: number[];
  valuesLabel: string;
  format: (value: number) => string;
  range: ((estimate: Estimate) => string) | null;
  estimate: Estimate | null;
}

const pings = (result: SpeedTestResult, load: string) =>
  result.samples.filter((sample) => sample.kind === 'latency' && sample.load === load).map((sample) => sample.pingMs);

const intervals = (result: SpeedTestResult, direction: string) =>
  result.intervals.filter((interval) => interval.direction === direction).map((interval) => interval.bitsPerSecond);

const rpm = (value: number) => `${Math.round(value)} RPM`;
const msRange = (estimate: Estimate) => formatMsRange(estimate.low, estimate.high);

const stopReasons = {
  stable: 'goodput was stable',
  'step-limit': 'the last stream count never settled',
  bytes: 'the byte budget ran out',
  time: 'the time budget ran out',
};

/** How the streams carried the bytes, when it was not plain HTTP requests. */
function transportNote(transport: 'http' | 'websocket' | 'mixed' | undefined): string {
  if (transport === 'websocket') {
    return ' Each stream was one WebSocket that sent without pause; the server reported the bytes it read, and each report placed them in time.';
  }
  if (transport === 'mixed') return ' Some streams used WebSockets; after one failed, the rest used HTTP requests.';
  return '';
}

/** What a buffering proxy on the way changed in how the uploads were counted, when there was one. */
const bufferedNote = (phase: { bufferedByProxy?: true }): string =>
  phase.bufferedByProxy
    ? " A proxy on the way took each upload in whole before passing it on, so the server's read times were its copy's, not the link's: each request's bytes were spread over the request instead."
    : '';

/** What the figure put back of the bytes losses held back across its window, when it did (stats/hold-back.ts). */
const holdBackNote = (phase: BandwidthResult, direction: 'download' | 'upload'): string => {
  const correction = phase.holdBack;
  if (!correction) return '';
  const percent = (correction.factor - 1) * 100;
  return ` With ${correction.lossPercent.toFixed(2)} % loss measured ${direction === 'download' ? 'down' : 'up'}, TCP held each stream's bytes back behind its retransmissions, and the loaded round trip grew from ${Math.round(correction.startRttMs)} to ${Math.round(correction.endRttMs)} ms across the window, so more was held back at its end than at its start: the headline is that mean ${percent >= 0 ? '+' : '−'}${Math.abs(percent).toFixed(1)} % (× ${correction.factor.toFixed(3)}, the ${direction}_hold_back_factor row of the CSV).`;
};

/**
 * How long the direction's goodput intervals lasted (ms): `intervalMs`, or longer on a long path, where the engine
 * stretches them to two idle round trips (each interval carries its length since results had `durationMs`).
 */
function intervalLengthMs(result: SpeedTestResult, direction: 'download' | 'upload'): number {
  const own = result.intervals.find((interval) => interval.direction === direction);
  return Math.round(own?.durationMs ?? result.options.intervalMs);
}

function bandwidthData(result: SpeedTestResult, direction: 'download' | 'upload'): MetricData {
  const phase = result[direction];
  const lengthMs = intervalLengthMs(result, direction);
  const count = phase?.bitsPerSecond.sampleCount ?? 0;
  const failure = result.directionFailures?.[direction];
  const headline = failure
    ? `${failureSentence(direction, failure)} (${failure.bytes} bytes moved in ${(failure.durationMs / 1000).toFixed(1)} s.)`
    : !phase
      ? result.partial?.missing.includes(direction)
        ? `Not measured: the run ${result.partial.reason === 'stopped' ? 'was stopped' : 'failed'} before the ${direction} finished, so its readings are not results.`
        : 'Not measured.'
      : phase.headlineSource === 'phase-average'
        ? `Headline = the phase's average rate (bytes moved × 8 / ${Math.round(phase.durationMs)} ms): it ended before any ${lengthMs} ms interval of its last step closed. The phase stopped because ${stopReasons[phase.stopReason]}.${bufferedNote(phase)}`
        : `Headline = mean of ${count} goodput ${count === 1 ? 'interval' : 'intervals'} of ${lengthMs} ms at ${streamCount(phase.streams)}, all streams together (the interval rows with in_headline = 1 in the CSV). The phase stopped because ${stopReasons[phase.stopReason]}.${holdBackNote(phase, direction)}${transportNote(phase.transport)}${bufferedNote(phase)}`;
  return {
    title: direction === 'download' ? 'Download' : 'Upload',
    headline,
    values: intervals(result, direction),
    valuesLabel: `every ${lengthMs} ms interval of the phase, all streams together (includes the ramp-up)`,
    format: formatBitsPerSecond,
    range: (estimate) => formatBitsPerSecondRange(estimate.low, estimate.high, estimate.value),
    estimate: phase?.bitsPerSecond ?? null,
  };
}

/** The raw values behind each headline figure, and which statistic of them the card shows. */
export function metricData(result: SpeedTestResult, metric: Metric): MetricData {
  // The idle pings the headline was made of (those after the download phase, once there are any).
  const idle = headlineIdlePings(result.samples).map((sample) => sample.pingMs);
  switch (metric) {
    case 'download':
    case 'upload':
      return bandwidthData(result, metric);
    case 'latency':
      return {
        title: 'Idle latency',
        headline: `Headline = median of ${idle.length} idle pings.`,
        values: idle,
        valuesLabel: 'idle pings',
        format: formatMs,
        range: msRange,
        estimate: result.latency.idleMs,
      };
    case 'jitter': {
      // The figure's own pings (result.latency counts the stalled ones it left out, from these same pings).
      const kept = withoutStalls(idle);
      const stalled = result.latency.stalledPings;
      return {
        title: 'Jitter',
        headline:
          stalled === 0
            ? 'Headline = mean of the differences between consecutive idle pings.'
            : `Headline = mean of the differences between consecutive idle pings, without the ${stalled} ${stalled === 1 ? 'ping' : 'pings'} at least ${STALL_MS} ms slower than the median: TCP resends a lost packet no sooner than that, so such a ping is a loss, not jitter.`,
        values: kept.slice(1).map((value, index) => Math.abs(value - (kept[index] as number))),
        valuesLabel: 'differences between consecutive idle pings',
        format: formatMs,
        range: null,
        estimate: null,
      };
    }
    case 'loadedDown':
    case 'loadedUp': {
      const load = metric === 'loadedDown' ? 'download' : 'upload';
      const values = pings(result, load);
      return {
        title: `Latency under ${load} load`,
        headline:
          values.length === 0
            ? result.directionFailures?.[load]
              ? `Not measured: the ${load} failed, so there was no load to measure under.`
              : 'Not measured.'
            : `Headline = median of ${values.length} pings sent while ${load === 'download' ? 'downloading' : 'uploading'}.`,
        values,
        valuesLabel: `pings while ${load === 'download' ? 'downloading' : 'uploading'}`,
        format: formatMs,
        range: msRange,
        estimate: metric === 'loadedDown' ? result.latency.downloadLoadedMs : result.latency.uploadLoadedMs,
      };
    }
    case 'rpm': {
      const loaded = [...pings(result, 'download'), ...pings(result, 'upload')];
      return {
        title: 'Responsiveness (round trips per minute under load)',
        headline: `Headline = 60000 / median of all ${loaded.length} loaded pings.`,
        values: loaded.filter((ms) => ms > 0).map((ms) => 60_000 / ms),
        valuesLabel: '60000 / each loaded ping',
        format: rpm,
        range: null,
        estimate: null,
      };
    }
  }
}

function list(rows: readonly [string, string][]): HTMLDListElement {
  const element = document.createElement('dl');
  for (const [term, value] of rows) {
    const dt = document.createElement('dt');
    dt.textContent = term;
    const dd = document.createElement('dd');
    dd.textContent = value;
    element.append(dt, dd);
  }
  return element;
}

const paragraph = (text: string, className?: string) => {
  const element = document.createElement('p');
  if (className) element.className = className;
  element.textContent = text;
  return element;
};

/** Fills the details panel for one metric: what the headline is, its interval, then the spread of the raw values. */
export function renderDetails(container: HTMLElement, result: SpeedTestResult, metric: Metric): void {
  const data = metricData(result, metric);
  const summary = summarize(data.values);
  const heading = document.createElement('h3');
  heading.textContent = data.title;
  const explanation = document.querySelector(`[data-explains="${metric}"]`)?.textContent ?? '';
  const headlineRows: [string, string][] = [];
  if (data.estimate) {
    headlineRows.push(['Headline', data.format(data.estimate.value)]);
    headlineRows.push([
      '95% interval',
      `${data.range?.(data.estimate) ?? '—'} (${data.estimate.level} confidence, ${data.estimate.sampleCount} ${data.estimate.sampleCount === 1 ? 'sample' : 'samples'})`,
    ]);
  }
  const spreadRows: [string, string][] = [
    ['Average', data.format(summary.mean)],
    ['Median', data.format(summary.median)],
    ['Minimum', data.format(summary.min)],
    ['Maximum', data.format(summary.max)],
    ['90th percentile', data.format(summary.p90)],
    ['Samples', String(summary.count)],
  ];
  const partial = result.partial
    ? [
        paragraph(
          `Partial result: the run ${result.partial.reason === 'stopped' ? 'was stopped' : 'failed'} before its ${describeMissing(result.partial.missing)} finished.`,
          'hint',
        ),
      ]
    : [];
  container.replaceChildren(
    heading,
    ...partial,
    paragraph(explanation, 'hint'),
    paragraph(data.headline, 'headline-rule'),
    list(headlineRows),
    paragraph(`Spread of ${data.valuesLabel}:`, 'hint'),
    list(spreadRows),
  );
}
