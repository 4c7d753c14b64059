/**
 * How a bandwidth phase adapts to the path's round-trip time (pure). Short paths (RTT ≤ 31.25 ms with the defaults)
 * keep the configured values.
 */
export interface PathTiming {
  /** How long each upload request should last, ms (downloads are one long request per stream). */
  targetRequestMs: number;
  /** Length of a goodput interval, ms. */
  intervalMs: number;
}

/**
 * - Upload requests last at least 16 round trips. Every HTTP/1.1 upload leaves its connection idle for about one
 *   round trip (last byte out, response back, next request out), so a stream is busy only target / (target + RTT) of
 *   its time: with 8 round trips one stream on a 100 Mbit/s, 80 ms path read 76.5 Mbit/s (requests at 87 Mbit/s,
 *   idle 12 % of the time). Other streams hide part of that; 16 round trips halve what is left.
 * - Intervals last at least 2 round trips: TCP sends in bursts once per round trip, so an interval shorter than that
 *   swings between nearly empty and nearly double the rate and never looks stable.
 * @param configured the configured `targetRequestMs` and `intervalMs`
 * @param idleRttMs median idle round trip of this test, ms (NaN or ≤ 0 = unknown: the configured values)
 */
export function pathTiming(configured: { targetRequestMs: number; intervalMs: number }, idleRttMs: number): PathTiming {
  if (!Number.isFinite(idleRttMs) || idleRttMs <= 0) return { ...configured };
  return {
    targetRequestMs: Math.max(configured.targetRequestMs, idleRttMs * 16),
    intervalMs: Math.max(configured.intervalMs, idleRttMs * 2),
  };
}
