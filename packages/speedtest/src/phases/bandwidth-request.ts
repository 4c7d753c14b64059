import { minMeasuredBytes } from './no-data';

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

/**
 * A phase's time budget (ms, pure): `maxDurationPerDirectionMs`, but on a long path at least
 * `minRoundTripsPerDirection` idle round trips, and never more than five times the configured budget (a path of
 * seconds, a link that is failing, must not hold the test for minutes). A phase needs about 30 round trips: TCP opens
 * its window by doubling once per round trip (from 10 segments to the 1.9 MB a 25 Mbit/s, 600 ms path holds: 7 of
 * them), intervals last two round trips (`pathTiming`), the ramp judges a step on four intervals, and a second step
 * (more streams) needs as many again. The default 12 s is 20 round trips at 600 ms and 12 at 1 s: on 25/3 Mbit/s,
 * 600 ms both directions stopped on time with one stream (download 19.8 and 24.4, upload 2.2 Mbit/s of 23.9 and 2.9)
 * and on 2/2 Mbit/s, 1 s at 1.3 and 0.4 of 1.9 (2026-11-28, `bench/results/accuracy/s51-long`); with 30 round trips,
 * in the same minutes, 23.8 and 19.8 down, 2.8 and 2.9 up at 600 ms, 1.9 down and 1.6–1.7 up at 1 s (`s51-long-budget`).
 * @param options the configured `maxDurationPerDirectionMs` (ms) and `minRoundTripsPerDirection` (count)
 * @param idleRttMs median idle round trip of this test, ms (NaN or ≤ 0 = unknown: the configured budget)
 */
export function phaseTimeBudgetMs(
  options: { maxDurationPerDirectionMs: number; minRoundTripsPerDirection: number },
  idleRttMs: number,
): number {
  const configuredMs = options.maxDurationPerDirectionMs;
  if (!Number.isFinite(idleRttMs) || idleRttMs <= 0) return configuredMs;
  return Math.min(5 * configuredMs, Math.max(configuredMs, options.minRoundTripsPerDirection * idleRttMs));
}

/**
 * Smallest upload request (bytes, pure), also the first one's size: `minRequestBytes`, but no more than
 * `minMeasuredBytes`. An upload's bytes count only once the server has read all of them and answered, and the phase's
 * time budget cuts the request in flight, so a request that outlasts the budget moves nothing the figure can use. The
 * old first request and floor of 100 kB take 12.5 s at 64 kbit/s: on such an uplink (a congested 2G or satellite
 * link) no upload ever finished within the 12 s budget, and the direction failed as "the server received no data".
 * A request no larger than what a direction must move to count as measured finishes on every link the test claims to
 * measure; the next one is sized to last `targetRequestMs` at the rate it showed (8× larger at most), so on a fast
 * link the small start costs a round trip or two, not accuracy.
 * @param minRequestBytes the configured `minRequestBytes`
 */
export function smallestUploadRequestBytes(minRequestBytes: number): number {
  return Math.min(minRequestBytes, minMeasuredBytes);
}

/** The least retransmission timeout TCP waits beyond the smoothed round trip (ms): Linux's `TCP_RTO_MIN`. */
const minRetransmissionTimeoutMs = 200;

/**
 * Shortest time (ms) in which the server reading nothing of an upload means its stream stalled (pure), waiting for a
 * retransmission timeout, rather than recovering a loss the usual way. A fast retransmission holds the stream's bytes
 * back for about one round trip of the loaded path (the retransmission's own), measured up to 1.5 of it between two
 * reads; a timeout comes at least `minRetransmissionTimeoutMs` after the smoothed round trip, and one round trip after
 * the loss that started it: at least twice the round trip and the minimum timeout together. The threshold sits at
 * twice the loaded round trip, never below the idle round trip plus the minimum timeout.
 * @param idleRttMs median idle round trip (ms; NaN or ≤ 0 = unknown)
 * @param loadedRttMs median round trip under this direction's load so far (ms), or null before the first loaded ping
 */
export function stallThresholdMs(idleRttMs: number, loadedRttMs: number | null): number {
  const idleMs = Number.isFinite(idleRttMs) && idleRttMs > 0 ? idleRttMs : 0;
  const loadedMs = loadedRttMs !== null && Number.isFinite(loadedRttMs) ? Math.max(idleMs, loadedRttMs) : idleMs;
  return Math.max(2 * loadedMs, idleMs + minRetransmissionTimeoutMs);
}
