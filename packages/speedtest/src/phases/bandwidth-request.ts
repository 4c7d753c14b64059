/**
 * How a bandwidth phase adapts to the path's round-trip time (pure). Short paths (RTT ≤ 62.5 ms with the defaults)
 * keep the configured values; the accuracy of those is what docs/accuracy.md validated before true-RTT links.
 */
export interface PathTiming {
  /** How long each request should last, ms. */
  targetRequestMs: number;
  /** Length of a goodput interval, ms. */
  intervalMs: number;
}

/**
 * - Requests last at least 8 round trips. Every HTTP/1.1 request leaves its connection idle for about one round trip
 *   (request out, first byte back), so requests sized to last `targetRequestMs` only fill target / (target + RTT) of
 *   a stream's time: 71 % with 500 ms requests on a 200 ms path. Overlapping streams hide part of that, but TCP's
 *   congestion window only grows while a connection is busy.
 * - Intervals last at least 2 round trips: TCP sends in bursts once per round trip, so an interval shorter than that
 *   swings between nearly empty and nearly double the rate and never looks stable.
 * @param configured the configured `targetRequestMs` and `intervalMs`
 * @param idleRttMs median idle round trip of this test, ms (NaN or ≤ 0 = unknown: the configured values)
 */
export function pathTiming(configured: { targetRequestMs: number; intervalMs: number }, idleRttMs: number): PathTiming {
  if (!Number.isFinite(idleRttMs) || idleRttMs <= 0) return { ...configured };
  return {
    targetRequestMs: Math.max(configured.targetRequestMs, idleRttMs * 8),
    intervalMs: Math.max(configured.intervalMs, idleRttMs * 2),
  };
}
