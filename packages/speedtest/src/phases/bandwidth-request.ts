/**
 * How long each request of a bandwidth stream should last, ms. Every HTTP/1.1 request on a stream leaves its
 * connection idle for about one round trip (request out, first byte back), so a stream of requests sized to last
 * `targetRequestMs` only fills `target / (target + RTT)` of its time: 71 % with 500 ms requests on a 200 ms path,
 * 86 % at 80 ms. Overlapping streams hide part of that gap, but TCP's congestion window only grows while a
 * connection is busy, so on long paths short requests also keep each connection from opening its window before the
 * ramp judges it. Requests therefore last at least `rttMultiple` round trips (gap ≤ 1 / (1 + rttMultiple)).
 * @param targetRequestMs the configured target (short paths keep it)
 * @param idleRttMs median idle round trip of this test, ms (NaN or ≤ 0 = unknown: the configured target)
 * @param rttMultiple round trips per request, at least
 */
export function requestTargetMs(targetRequestMs: number, idleRttMs: number, rttMultiple = 8): number {
  if (!Number.isFinite(idleRttMs) || idleRttMs <= 0) return targetRequestMs;
  return Math.max(targetRequestMs, idleRttMs * rttMultiple);
}
