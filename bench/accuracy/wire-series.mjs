// Pure parts of download-wire.mjs and of the bench's wire meter (wire-meter.mjs): the router's device series and a
// result's figure window, on one clock.
import { goodputOfRateBps } from '../lib/line-goodput.mjs';

/** Payload bytes per metered byte of a full segment (1448 of the 1514-byte frame tbf meters). */
const payloadPerWireByte = goodputOfRateBps(1) / 1e6;

/**
 * The lines of wire-down.tsv: `dev <epochMs> <txBytes>` and `tbf <epochMs> <tc -s qdisc output on one line>`.
 * @param {string} text
 * @returns {{ dev: [number, number][], tbf: { ms: number, sentBytes: number, dropped: number, backlogBytes: number }[] }}
 */
export function parseWire(text) {
  /** @type {[number, number][]} */
  const dev = [];
  /** @type {{ ms: number, sentBytes: number, dropped: number, backlogBytes: number }[]} */
  const tbf = [];
  for (const line of text.split('\n')) {
    const [kind, ms, rest] = line.split('\t');
    if (kind === 'dev' && Number.isFinite(Number(rest))) dev.push([Number(ms), Number(rest)]);
    if (kind === 'tbf' && rest) {
      const sent = /Sent (\d+) bytes \d+ pkt \(dropped (\d+)/.exec(rest);
      const backlog = /backlog (\d+)b/.exec(rest);
      if (sent && backlog) {
        tbf.push({
          ms: Number(ms),
          sentBytes: Number(sent[1]),
          dropped: Number(sent[2]),
          backlogBytes: Number(backlog[1]),
        });
      }
    }
  }
  return { dev, tbf };
}

/**
 * A counter's value at `ms`, interpolated linearly between its polls; NaN outside them.
 * @param {[number, number][]} series [epochMs, value], in time order
 * @param {number} ms
 */
export function valueAt(series, ms) {
  if (series.length === 0 || ms < series[0][0] || ms > (series.at(-1)?.[0] ?? -Infinity)) return Number.NaN;
  let low = 0;
  let high = series.length - 1;
  while (high - low > 1) {
    const middle = (low + high) >> 1;
    if (series[middle][0] <= ms) low = middle;
    else high = middle;
  }
  const [t0, v0] = series[low];
  const [t1, v1] = series[high];
  return t1 === t0 ? v0 : v0 + ((v1 - v0) * (ms - t0)) / (t1 - t0);
}

/**
 * Payload-equivalent rate (bit/s) the shaper sent between two instants (epoch ms): its device's transmitted bytes ×
 * 1448/1514.
 * @param {[number, number][]} dev
 * @param {number} fromMs
 * @param {number} toMs
 */
export function wireRateBps(dev, fromMs, toMs) {
  return ((valueAt(dev, toMs) - valueAt(dev, fromMs)) * payloadPerWireByte * 8 * 1000) / (toMs - fromMs);
}

/**
 * A saved run's download intervals, their length (ms) and where the figure's window sits in them: the run of
 * intervals whose values are the figure's basis, [start, end).
 * @param {any} raw a SpeedTestResult saved with `--samples`
 * @returns {{ intervals: { startMs: number, bitsPerSecond: number, streams: number }[], intervalMs: number, start: number, end: number } | null}
 */
export function downloadWindow(raw) {
  return figureWindow(raw, 'download');
}

/**
 * A result's intervals of one direction, their length (ms) and where that direction's figure window sits in them
 * (the run of intervals whose values are the figure's basis, [start, end)); null without one.
 * @param {any} raw a SpeedTestResult
 * @param {'download' | 'upload'} direction
 * @returns {{ intervals: { startMs: number, bitsPerSecond: number, streams: number }[], intervalMs: number, start: number, end: number } | null}
 */
export function figureWindow(raw, direction) {
  const intervals = (raw?.intervals ?? []).filter((/** @type {any} */ i) => i.direction === direction);
  const figure = raw?.[direction];
  const basis = figure?.headlineBasisBitsPerSecond ?? [];
  if (intervals.length < 2 || basis.length === 0 || figure.headlineSource !== 'intervals') return null;
  const intervalMs = intervals[1].startMs - intervals[0].startMs;
  for (let start = 0; start + basis.length <= intervals.length; start++) {
    if (
      basis.every(
        (/** @type {number} */ value, /** @type {number} */ k) => intervals[start + k].bitsPerSecond === value,
      )
    ) {
      return { intervals, intervalMs, start, end: start + basis.length };
    }
  }
  return null;
}

/**
 * What the link carried in a result's figure window of one direction (payload bit/s, `wireRateBps` of the router's
 * device towards the receiver), beside what the page read in the same intervals (their mean); null when the result
 * has no such window or the series does not cover it. The page clock is placed on the epoch by the result's
 * `startedAt` (taken at the test's origin).
 * @param {any} raw a SpeedTestResult
 * @param {'download' | 'upload'} direction
 * @param {[number, number][]} dev [epochMs, transmitted bytes] of the router's device towards the receiver
 * @returns {{ wireBps: number, pageBps: number, windowMs: number } | null}
 */
export function windowOnWire(raw, direction, dev) {
  const window = figureWindow(raw, direction);
  const originMs = Date.parse(raw?.startedAt);
  if (!window || !Number.isFinite(originMs)) return null;
  const { intervals, intervalMs, start, end } = window;
  const fromMs = originMs + intervals[start].startMs;
  const toMs = originMs + intervals[end - 1].startMs + intervalMs;
  const wireBps = wireRateBps(dev, fromMs, toMs);
  if (!Number.isFinite(wireBps)) return null;
  const pageBps = intervals.slice(start, end).reduce((sum, i) => sum + i.bitsPerSecond, 0) / (end - start);
  return { wireBps, pageBps, windowMs: toMs - fromMs };
}

/**
 * Transmitted bytes of the router's two veth ends from the text of /proc/PID/net/dev of a process in its namespace
 * (pure): towards the client (`<prefix>-rc`, downloads) and towards the server (`<prefix>-rs`, uploads); NaN for a
 * device not listed.
 * @param {string} text
 */
export function routerTxBytes(text) {
  let down = Number.NaN;
  let up = Number.NaN;
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).trim();
    // Fields after the name: 8 receive counters, then transmitted bytes.
    const txBytes = Number(
      line
        .slice(colon + 1)
        .trim()
        .split(/\s+/)[8],
    );
    if (name.endsWith('-rc')) down = txBytes;
    else if (name.endsWith('-rs')) up = txBytes;
  }
  return { down, up };
}

/**
 * Bytes between the wire and the page at each interval's end: payload the shaper had sent since the first interval's
 * start, less what the page had read by then (bytes). They are what a loss holds back in the client's kernel (TCP
 * hands bytes over in order) or the browser had not handed to the page yet; a window whose end holds more of them than
 * its start reads that much below the wire.
 * @param {[number, number][]} dev
 * @param {{ startMs: number, bitsPerSecond: number }[]} intervals
 * @param {number} originMs the epoch of the page clock's 0 (the result's `startedAt`)
 * @param {number} intervalMs
 */
export function receivePathBacklog(dev, intervals, originMs, intervalMs) {
  const fromMs = originMs + (intervals[0]?.startMs ?? 0);
  let pageBytes = 0;
  return intervals.map((interval) => {
    pageBytes += (interval.bitsPerSecond * intervalMs) / 8000;
    const toMs = originMs + interval.startMs + intervalMs;
    return (valueAt(dev, toMs) - valueAt(dev, fromMs)) * payloadPerWireByte - pageBytes;
  });
}

/**
 * The shaper's mean backlog (bytes) in each interval, from its polls; NaN for an interval without one.
 * @param {{ ms: number, backlogBytes: number }[]} tbf
 * @param {{ startMs: number }[]} intervals
 * @param {number} originMs
 * @param {number} intervalMs
 */
export function shaperBacklog(tbf, intervals, originMs, intervalMs) {
  return intervals.map((interval) => {
    const fromMs = originMs + interval.startMs;
    const polls = tbf.filter((poll) => poll.ms >= fromMs && poll.ms < fromMs + intervalMs);
    return polls.length > 0 ? polls.reduce((sum, poll) => sum + poll.backlogBytes, 0) / polls.length : Number.NaN;
  });
}

/**
 * Every `everyMs`-th poll of a counter series, and its last (pure): a run's series at a resolution a saved result can
 * carry (10 ms polls over a minute are 6,000 points a direction).
 * @param {[number, number][]} series [epochMs, value], in time order
 * @param {number} everyMs
 */
export function thinSeries(series, everyMs) {
  /** @type {[number, number][]} */
  const kept = [];
  for (const point of series) {
    const last = kept.at(-1);
    if (!last || point[0] - last[0] >= everyMs) kept.push(point);
  }
  const end = series.at(-1);
  if (end && kept.at(-1) !== end) kept.push(end);
  return kept;
}

/**
 * A result's phases on its own clock (ms from the test's origin, pure): the idle start, each direction from its first
 * transfer or loaded ping to its last one's end, the settled idle pings between them, and what follows the upload
 * (the drain wait and the packet-loss phase) up to the result's end. A direction without samples has no span.
 * @param {any} raw a SpeedTestResult
 * @returns {{ phase: string, fromMs: number, toMs: number }[]}
 */
export function phaseSpans(raw) {
  /** @param {string} load */
  const span = (load) => {
    const samples = (raw?.samples ?? []).filter((/** @type {any} */ s) => s.load === load);
    if (samples.length === 0) return null;
    return {
      fromMs: Math.min(...samples.map((/** @type {any} */ s) => s.startMs)),
      toMs: Math.max(...samples.map((/** @type {any} */ s) => s.startMs + s.durationMs)),
    };
  };
  const endMs = Number(raw?.durationMs);
  const download = span('download');
  const upload = span('upload');
  /** @type {{ phase: string, fromMs: number, toMs: number }[]} */
  const spans = [];
  let atMs = 0;
  /** @param {string} phase @param {number} toMs */
  const add = (phase, toMs) => {
    if (toMs > atMs) spans.push({ phase, fromMs: atMs, toMs });
    atMs = Math.max(atMs, toMs);
  };
  if (download) {
    add('idle pings', download.fromMs);
    add('download', download.toMs);
  }
  if (upload) {
    add(download ? 'settled pings' : 'idle pings', upload.fromMs);
    add('upload', upload.toMs);
  }
  if (Number.isFinite(endMs)) add(upload ? 'drain and loss' : 'rest', endMs);
  return spans;
}

/**
 * Bytes the router carried each way in each of a result's phases (pure; `phaseSpans`), from its two device series; NaN
 * where a series does not cover a phase. The page clock is placed on the epoch by the result's `startedAt`.
 * @param {any} raw a SpeedTestResult
 * @param {{ down: [number, number][], up: [number, number][] }} wire
 * @returns {{ phase: string, fromMs: number, toMs: number, downBytes: number, upBytes: number }[]}
 */
export function bytesByPhase(raw, wire) {
  const originMs = Date.parse(raw?.startedAt);
  /** @param {[number, number][]} series @param {number} fromMs @param {number} toMs */
  const moved = (series, fromMs, toMs) => valueAt(series, originMs + toMs) - valueAt(series, originMs + fromMs);
  return phaseSpans(raw).map((span) => ({
    ...span,
    downBytes: moved(wire.down, span.fromMs, span.toMs),
    upBytes: moved(wire.up, span.fromMs, span.toMs),
  }));
}
