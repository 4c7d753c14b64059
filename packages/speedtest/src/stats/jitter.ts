import { median } from './summary';

/**
 * Jitter as the mean absolute difference between consecutive latency samples, in the order they were taken
 * (the anchor's and RFC 3550's idea, without RFC 3550's exponential smoothing). Null for fewer than two samples.
 */
export function jitter(latenciesMs: readonly number[]): number | null {
  if (latenciesMs.length < 2) return null;
  let total = 0;
  for (let index = 1; index < latenciesMs.length; index++) {
    total += Math.abs((latenciesMs[index] as number) - (latenciesMs[index - 1] as number));
  }
  return total / (latenciesMs.length - 1);
}

/**
 * How much slower than the median a ping must be to count as stalled rather than jittered (ms). A ping over TCP
 * whose request or response packet is lost arrives only after TCP resends it: no sooner than its minimum
 * retransmission timeout (200 ms in Linux, 300 ms in Windows) or, for a lone packet, Linux's tail-loss probe after
 * two round trips plus 200 ms. In the accuracy testbed's 83 recorded runs (2026-11-26, lossy and clean links), 34
 * idle pings came 224–895 ms above their run's median and every other one at most 42 ms above it. Counted as
 * jitter, one of them among 20 pings added 25–45 ms. A delay that long is also past what a call's or game's jitter
 * buffer waits for: to those it is a lost packet, which the packet-loss test measures.
 */
export const STALL_MS = 200;

export interface JitterFigures {
  /** Jitter of the pings that did not stall (ms); null for fewer than two of them. */
  jitterMs: number | null;
  /** Pings at least `STALL_MS` slower than the median, left out of `jitterMs`. */
  stalledPings: number;
}

/** The pings that did not stall (see `STALL_MS`), in their order. */
export function withoutStalls(latenciesMs: readonly number[]): number[] {
  if (latenciesMs.length === 0) return [];
  const limitMs = median(latenciesMs) + STALL_MS;
  return latenciesMs.filter((ms) => ms < limitMs);
}

/**
 * Jitter without the pings a lost packet stalled (see `STALL_MS`): they are taken out of the sequence, and the
 * differences are taken between the pings either side of them.
 */
export function jitterWithoutStalls(latenciesMs: readonly number[]): JitterFigures {
  const kept = withoutStalls(latenciesMs);
  return { jitterMs: jitter(kept), stalledPings: latenciesMs.length - kept.length };
}
