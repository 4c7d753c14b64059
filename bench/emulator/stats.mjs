// Pure statistics of the emulator bench (unit-tested in test/stats.test.ts).

/** @param {number[]} values */
export function median(values) {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Median of an iperf3 report's per-interval receiver rates after the omitted warm-up, bits/s: TOOLCHAIN's measured
 * "truth" estimator (within 0.2 % of rate × 1448/1514 on a plain shaped veth), robust to a standing queue at the end.
 * @param {{ intervals?: { sum?: { bits_per_second?: number, omitted?: boolean } }[] }} report
 */
export function medianIntervalBps(report) {
  const rates = (report.intervals ?? [])
    .filter(({ sum }) => sum && !sum.omitted)
    .map(({ sum }) => Number(sum?.bits_per_second));
  return median(rates);
}

/**
 * Datagram loss from the receiver's iperf3 UDP report: lost / (received + lost), %.
 * @param {{ end?: { sum?: { lost_packets?: number, packets?: number } } }} report
 */
export function iperfUdpLoss(report) {
  const lost = Number(report.end?.sum?.lost_packets);
  const packets = Number(report.end?.sum?.packets);
  return { lostPackets: lost, packets, lossPercent: packets > 0 ? (lost / packets) * 100 : Number.NaN };
}

export { goodputOfRateBps } from '../lib/line-goodput.mjs';

/** Relative error of `measured` against `expected`, % (NaN when expected is 0 or either is unknown). */
export function relativeErrorPercent(/** @type {number} */ measured, /** @type {number} */ expected) {
  if (!Number.isFinite(measured) || !Number.isFinite(expected) || expected === 0) return Number.NaN;
  return ((measured - expected) / expected) * 100;
}
