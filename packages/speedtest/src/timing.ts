/**
 * Request timing from PerformanceResourceTiming, with a fallback to the engine's own clock readings when the entry
 * is missing or empty (buffer full, cross-origin without Timing-Allow-Origin): the anchor crashes there.
 * Pure: callers pass plain numbers.
 */

/** The fields of a PerformanceResourceTiming entry the engine reads. */
export interface ResourceTimes {
  requestStart: number;
  responseStart: number;
  responseEnd: number;
}

/** performance.now() readings the engine takes itself: before fetch, when headers arrived, after the body. */
export interface ClockTimes {
  startMs: number;
  headersMs: number;
  endMs: number;
}

export interface RequestTiming {
  /** Request sent → first response byte (ms). */
  ttfbMs: number;
  /** Round trip: TTFB minus the server's reported processing time (ms). */
  pingMs: number;
  /** First response byte → last response byte (ms). */
  payloadMs: number;
  source: 'resource-timing' | 'clock';
}

/** Server processing time from `Server-Timing` (`cfRequestDuration;dur=`, as Cloudflare and our Worker send it). */
export function parseServerTimingMs(header: string | null): number | null {
  if (!header) return null;
  const match = /(?:^|,)\s*cfReq(?:uest)?Dur(?:ation)?\s*;\s*dur=([0-9.]+)/i.exec(header);
  if (!match) return null;
  const value = Number(match[1]);
  return Number.isFinite(value) ? value : null;
}

/** True when an entry has the detailed timestamps (all zero when the server withholds Timing-Allow-Origin). */
function isUsableEntry(entry: ResourceTimes | undefined | null): entry is ResourceTimes {
  return (
    !!entry &&
    entry.requestStart > 0 &&
    entry.responseStart >= entry.requestStart &&
    entry.responseEnd >= entry.responseStart
  );
}

/** TTFB, ping and payload time of one request, preferring the resource-timing entry. */
export function requestTiming(
  entry: ResourceTimes | undefined | null,
  clock: ClockTimes,
  serverMs: number | null,
): RequestTiming {
  const usable = isUsableEntry(entry);
  const ttfbMs = usable ? entry.responseStart - entry.requestStart : clock.headersMs - clock.startMs;
  const payloadMs = usable ? entry.responseEnd - entry.responseStart : clock.endMs - clock.headersMs;
  // A server time larger than the TTFB is a clock artefact; never report a negative round trip.
  const pingMs = Math.max(0, ttfbMs - Math.min(serverMs ?? 0, ttfbMs));
  return { ttfbMs, pingMs, payloadMs, source: usable ? 'resource-timing' : 'clock' };
}

/**
 * Download transfer time as the anchor defines it (ping + payload): the first byte needed a round trip after the
 * request reached the server, so payload time alone would flatter small responses.
 */
export const downloadDurationMs = (timing: RequestTiming): number => timing.pingMs + timing.payloadMs;

/**
 * Upload transfer time without the anchor's bias: the TTFB of a POST is RTT + transfer + server time, so the idle
 * round trip and the server's time after the last byte are taken out (never below 1 ms).
 */
export function uploadDurationMs(timing: RequestTiming, idleRttMs: number): number {
  return Math.max(1, timing.ttfbMs - idleRttMs);
}

/** Bits per second, or null when the duration is too short to mean anything. */
export function bitsPerSecond(bytes: number, durationMs: number, minDurationMs = 1): number | null {
  return durationMs >= minDurationMs ? (bytes * 8 * 1000) / durationMs : null;
}
