// Pure parts of download-wire.mjs: the recorded shaper series and a saved run's download window, on one clock.
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
  const intervals = raw.intervals.filter((/** @type {any} */ i) => i.direction === 'download');
  const basis = raw.download?.headlineBasisBitsPerSecond ?? [];
  if (intervals.length < 2 || basis.length === 0 || raw.download.headlineSource !== 'intervals') return null;
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
