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
 * - Upload requests last at least 8 round trips. Every HTTP/1.1 upload leaves its connection idle for about one
 *   round trip (last byte out, response back, next request out). Goodput leaves that gap out (the server's read
 *   times show it: upload-spans.ts), so it no longer lowers the figure, as it did when each request's bytes were
 *   spread over it (16 round trips were needed then); what it still costs is time in which not every stream sends.
 *   Longer requests cost bytes instead: an interval is complete only once the requests overlapping it have
 *   finished, so the ramp decides a request's length late (16 round trips on 100 Mbit/s, 80 ms: 1.4 s, 17 MB).
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
