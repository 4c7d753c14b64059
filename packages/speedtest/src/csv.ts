import { describeMissing } from './partial';
import { headlineIdlePings } from './phases/latency';
import type { Estimate } from './stats/confidence';
import { STALL_MS } from './stats/jitter';
import type { DirectionFailure, GoodputInterval, RequestSample, SpeedTestResult } from './types';

/**
 * CSV columns, in this order. One file holds three kinds of row (`record`): every request (`ping` or `transfer`),
 * every goodput interval (`interval`), and every figure the page shows (`summary`), so the file alone reproduces the
 * page. Columns that do not apply to a row are empty.
 */
export const csvColumns = [
  'record',
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
  'in_headline',
  'metric',
  'value',
  'low',
  'high',
  'unit',
  'confidence',
  'sample_count',
  'basis',
] as const;

type Column = (typeof csvColumns)[number];
type Row = Partial<Record<Column, string | number | null>>;

const cell = (value: string | number | null | undefined): string => {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return value > 0 ? 'inf' : '';
    return Number.isInteger(value) ? String(value) : value.toFixed(3);
  }
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
};

const toLines = (rows: readonly Row[]) => rows.map((row) => csvColumns.map((column) => cell(row[column])).join(','));

/**
 * A request as a row: pings have no direction (they are round trips), transfers carry theirs. `headlinePings`: the
 * idle pings the idle latency is the median of, marked `in_headline` (only in a whole result's CSV).
 */
function sampleRow(sample: RequestSample, headlinePings?: ReadonlySet<RequestSample>): Row {
  const idlePing = sample.kind === 'latency' && sample.load === 'idle';
  const fromReports = sample.timingSource === 'server-report';
  return {
    record: sample.kind === 'latency' ? 'ping' : 'transfer',
    direction: sample.kind === 'latency' ? null : sample.kind,
    load: sample.load,
    bytes: sample.bytes,
    received_bytes: sample.receivedBytes,
    start_ms: sample.startMs,
    duration_ms: sample.durationMs,
    bits_per_second: sample.bitsPerSecond,
    // A socket's byte reports have no first byte and no round trip: empty, not a measured 0.
    ttfb_ms: fromReports ? null : sample.ttfbMs,
    server_ms: sample.serverMs,
    ping_ms: fromReports ? null : sample.pingMs,
    parallel_streams: sample.parallelStreams,
    timing_source: sample.timingSource,
    in_headline: headlinePings && idlePing ? (headlinePings.has(sample) ? 1 : 0) : null,
    basis: transferNote(sample),
  };
}

/** Shortest transfer time that gives a rate (ms): below it the browser's timer resolution dominates. */
const minRateDurationMs = 10;

/**
 * Pure: why a transfer row has no rate or no timing, in its `basis` cell; null for an ordinary row. An HTTP upload is
 * timed as its TTFB minus the idle round trip (the server answers once it has read the body): on a fast path the
 * body is in the socket buffers before the request is sent, the answer comes within about one round trip, and that
 * leaves nothing to time (the duration is floored at 1 ms); its bytes still count in the goodput intervals, which
 * are placed by when the server read them.
 */
export function transferNote(sample: RequestSample): string | null {
  if (sample.kind === 'latency') return null;
  if (sample.timingSource === 'server-report') {
    return 'bytes the server reported reading over this stretch of a WebSocket; no TTFB or round trip';
  }
  if (sample.bitsPerSecond !== null) return null;
  if (sample.kind === 'upload') {
    return `no rate: TTFB minus the idle round trip left under ${minRateDurationMs} ms (the body was sent within about one round trip); the bytes count in the intervals`;
  }
  return `no rate: under ${minRateDurationMs} ms of transfer (timer resolution); the bytes count in the intervals`;
}

/**
 * Pure: which intervals the headline figure is the mean of. The basis holds copies of interval values, so each basis
 * value claims the first unclaimed interval with the same value (equal values give the same mean either way).
 */
export function headlineFlags(intervals: readonly GoodputInterval[], basis: readonly number[]): boolean[] {
  const flags = intervals.map(() => false);
  for (const value of basis) {
    const index = intervals.findIndex((interval, at) => !flags[at] && interval.bitsPerSecond === value);
    if (index >= 0) flags[index] = true;
  }
  return flags;
}

function intervalRows(result: SpeedTestResult): Row[] {
  const rows: Row[] = [];
  for (const direction of ['download', 'upload'] as const) {
    const intervals = result.intervals.filter((interval) => interval.direction === direction);
    const flags = headlineFlags(intervals, result[direction]?.headlineBasisBitsPerSecond ?? []);
    intervals.forEach((interval, index) => {
      rows.push({
        record: 'interval',
        direction,
        load: direction,
        start_ms: interval.startMs,
        // Longer than `intervalMs` on long paths (two round trips); results saved before the field lasted it.
        duration_ms: interval.durationMs ?? result.options.intervalMs,
        bits_per_second: interval.bitsPerSecond,
        parallel_streams: interval.streams,
        in_headline: flags[index] ? 1 : 0,
      });
    });
  }
  return rows;
}

const estimateRow = (metric: string, unit: string, estimate: Estimate, basis: string): Row => ({
  record: 'summary',
  metric,
  value: estimate.value,
  low: estimate.low,
  high: estimate.high,
  unit,
  confidence: estimate.level,
  sample_count: estimate.sampleCount,
  basis,
});

const figureRow = (metric: string, unit: string, value: number | string | null, basis: string): Row => ({
  record: 'summary',
  metric,
  value,
  unit,
  basis,
});

const transportBasis = {
  http: 'one HTTP request after another per stream',
  websocket:
    'one WebSocket per stream (/__up-ws), sending without pause; its rows are the bytes the server reported per stretch of time',
  mixed: 'WebSockets for some streams, HTTP requests for the streams after a socket failed',
} as const;

/** A partial result's first summary row: why it ended, and what it lacks. */
function partialRow(partial: NonNullable<SpeedTestResult['partial']>): Row {
  const why = partial.reason === 'stopped' ? 'stopped' : `failed (${partial.message ?? 'unknown error'})`;
  return figureRow(
    'partial',
    'run',
    partial.reason,
    `partial result: the run ${why} before its ${describeMissing(partial.missing)} finished; only the phases that finished are in this file`,
  );
}

/**
 * A direction that ran without a figure: its metric's row with an empty value and why in `basis` (a direction the run
 * left out has no row at all), like the `loss` row when loss was not measured.
 */
function failureRow(direction: 'download' | 'upload', failure: DirectionFailure): Row {
  const moved = `${failure.bytes} bytes in ${Math.round(failure.durationMs)} ms`;
  return figureRow(direction, 'bit/s', null, `failed (${failure.reason}): ${failure.message}; no rate (${moved})`);
}

const streams = (count: number) => `${count} ${count === 1 ? 'stream' : 'streams'}`;

function summaryRows(result: SpeedTestResult): Row[] {
  const rows: Row[] = result.partial ? [partialRow(result.partial)] : [];
  const { latency, rpm } = result;
  for (const direction of ['download', 'upload'] as const) {
    const phase = result[direction];
    const failure = result.directionFailures?.[direction];
    if (failure) rows.push(failureRow(direction, failure));
    if (!phase) continue;
    rows.push(
      estimateRow(
        direction,
        'bit/s',
        phase.bitsPerSecond,
        phase.headlineSource === 'intervals'
          ? `mean of the ${direction} interval rows with in_headline=1 (all streams together, ${streams(phase.streams)}, stop: ${phase.stopReason})${phase.holdBack ? `, × ${direction}_hold_back_factor` : ''}; interval = mean·e^±h on the log scale`
          : `phase average: ${direction}_client_bytes × 8 / the phase's ${Math.round(phase.durationMs)} ms (no interval of the last step closed before the phase ended; ${streams(phase.streams)}, stop: ${phase.stopReason})`,
      ),
      figureRow(`${direction}_client_bytes`, 'bytes', phase.clientBytes, 'bytes this direction moved, client count'),
    );
    if (phase.holdBack) {
      const { factor, lossPercent, startRttMs, endRttMs } = phase.holdBack;
      rows.push(
        figureRow(
          `${direction}_hold_back_factor`,
          'ratio',
          factor,
          `what losses held back grew across the window as its loaded round trip went ${Math.round(startRttMs)} → ${Math.round(endRttMs)} ms at ${lossPercent.toFixed(2)} % loss ${direction === 'download' ? 'down' : 'up'}; the ${direction} figure is the mean times this`,
        ),
      );
    }
    if (phase.serverBytes !== null) {
      rows.push(figureRow(`${direction}_server_bytes`, 'bytes', phase.serverBytes, 'bytes the server reported'));
    }
    if (phase.transport) {
      rows.push(figureRow(`${direction}_transport`, 'transport', phase.transport, transportBasis[phase.transport]));
    }
    if (phase.bufferedByProxy) {
      rows.push(
        figureRow(
          `${direction}_buffered_by_proxy`,
          'flag',
          1,
          "the server read the bodies from a proxy's buffered copies, so each request's bytes were spread over it",
        ),
      );
    }
  }
  const idleBasis = 'ping rows with load=idle and in_headline=1 (after the download phase; the start pings if none)';
  rows.push(estimateRow('idle_latency', 'ms', latency.idleMs, `median ping_ms of ${idleBasis}`));
  rows.push(
    figureRow(
      'jitter',
      'ms',
      latency.jitterMs,
      `mean |difference| of consecutive ping_ms of ${idleBasis}, without those ${STALL_MS} ms or more above their median`,
    ),
    figureRow(
      'stalled_pings',
      'pings',
      latency.stalledPings,
      `${idleBasis} ${STALL_MS} ms or more above their median (a lost packet resent by TCP), left out of jitter`,
    ),
  );
  if (latency.downloadLoadedMs) {
    rows.push(estimateRow('download_loaded_latency', 'ms', latency.downloadLoadedMs, 'median ping_ms, load=download'));
  }
  if (latency.uploadLoadedMs) {
    rows.push(estimateRow('upload_loaded_latency', 'ms', latency.uploadLoadedMs, 'median ping_ms, load=upload'));
  }
  rows.push(
    figureRow('rpm', 'RPM', rpm.overall, '60000 / median ping_ms of every loaded ping row'),
    figureRow('rpm_download', 'RPM', rpm.download, '60000 / download_loaded_latency'),
    figureRow('rpm_upload', 'RPM', rpm.upload, '60000 / upload_loaded_latency'),
  );
  for (const [direction, loss] of result.loss
    ? ([
        ['up', result.loss.up],
        ['down', result.loss.down],
      ] as const)
    : []) {
    rows.push({
      record: 'summary',
      metric: `loss_${direction}`,
      value: loss.lossPct,
      low: loss.lowPct,
      high: loss.highPct,
      unit: '%',
      confidence: 'wilson-95',
      sample_count: loss.sent,
      basis: `${loss.sent - loss.received} of ${loss.sent} numbered datagrams lost ${direction === 'up' ? 'client -> TURN relay' : 'TURN relay -> client'} (${result.loss?.relay})`,
    });
  }
  if (result.lossNote) rows.push(figureRow('loss', '%', null, result.lossNote));
  for (const [experience, quality] of Object.entries(result.quality)) {
    rows.push(figureRow(`quality_${experience}`, 'class', quality, 'thresholds in qualityThresholds'));
  }
  rows.push(
    figureRow('total_download_bytes', 'bytes', result.totalBytes.download, 'including aborted requests'),
    figureRow('total_upload_bytes', 'bytes', result.totalBytes.upload, 'including aborted requests'),
    figureRow('duration_ms', 'ms', result.durationMs, `test started ${result.startedAt}`),
  );
  return rows;
}

/** RFC 4180 CSV of every request only (CRLF line ends, header row first, empty cell for unknown). */
export function samplesToCsv(samples: readonly RequestSample[]): string {
  return `${[csvColumns.join(','), ...toLines(samples.map((sample) => sampleRow(sample)))].join('\r\n')}\r\n`;
}

/** RFC 4180 CSV of a whole result: every request, every goodput interval, then every figure shown on the page. */
export function resultToCsv(result: SpeedTestResult): string {
  const headlinePings = new Set(headlineIdlePings(result.samples));
  const samples = result.samples.map((sample) => sampleRow(sample, headlinePings));
  const rows = [...samples, ...intervalRows(result), ...summaryRows(result)];
  return `${[csvColumns.join(','), ...toLines(rows)].join('\r\n')}\r\n`;
}

/** RFC 4180 cells of one line: quotes around cells with commas, `""` for a quote inside. */
function cellsOf(line: string): string[] {
  const cells: string[] = [];
  let current = '';
  let quoted = false;
  for (let index = 0; index < line.length; index++) {
    const char = line[index];
    if (quoted && char === '"' && line[index + 1] === '"') {
      current += '"';
      index++;
    } else if (char === '"') quoted = !quoted;
    else if (char === ',' && !quoted) {
      cells.push(current);
      current = '';
    } else current += char;
  }
  return [...cells, current];
}

/**
 * Reads a file written by `resultToCsv` or `samplesToCsv` back: one record per row, keyed by the header's column
 * names, every value the text of its cell. Cells never hold line breaks (numbers and short labels only).
 */
export function csvRecords(csv: string): Record<string, string>[] {
  const [header = '', ...lines] = csv.trimEnd().split('\r\n');
  const columns = cellsOf(header);
  return lines.map((line) => Object.fromEntries(cellsOf(line).map((value, index) => [columns[index], value])));
}
