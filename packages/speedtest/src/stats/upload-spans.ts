/** Bytes that crossed the link between two instants (ms, performance.now() scale). */
export interface ByteSpan {
  startMs: number;
  endMs: number;
  bytes: number;
}

/**
 * An upload's bytes in time; from the server's read times, also when its handler started (request headers arrived),
 * when its first read returned and when it read the last byte, all on the client's clock (ms).
 */
export type UploadPlacement =
  | { spans: ByteSpan[]; fromServer: false }
  | {
      spans: ByteSpan[];
      fromServer: true;
      receiveStartMs: number;
      firstReadMs: number;
      receiveEndMs: number;
      /**
       * From the first stretch longer than `stallMs` in which the server read nothing to its last read (client clock,
       * ms), or null when there was none: see `uploadSpans`.
       */
      stall: GapSpan | null;
    };

/** What one finished upload tells about when its bytes moved. */
export interface UploadObservation {
  /** Request sent and response's first byte, client clock (ms). */
  requestStartMs: number;
  responseStartMs: number;
  /** Median idle round trip (ms). */
  idleRttMs: number;
  /** Bytes the request carried. */
  bytes: number;
  /**
   * The server's `[offsetMs, bytes]` read times from its handler's start (bytes counted up to then), when it sent
   * them; `serverEndMs` is when it answered on the same clock (ms).
   */
  receiveTimeline?: readonly (readonly [number, number])[] | null;
  serverEndMs?: number | null;
  /** A stretch between two reads longer than this (ms) is a stall (`stallThresholdMs`); omitted: none is. */
  stallMs?: number;
}

/**
 * Where an upload's bytes go in the goodput meter (pure).
 * - With the server's read times: each stretch between two reads, moved onto the client's clock by anchoring the
 *   server's answer at the response's first byte less half the idle round trip (the way back; an upload loads only
 *   the way out). Goodput intervals then hold the bytes that reached the server in them, as iperf3's receiver counts:
 *   a loss that stalls one stream while the others fill the link shows as such, instead of every request's bytes
 *   spread evenly over it (on 100/100 Mbit/s, 80 ms, 0.5 % loss intervals summed to +17.5 % over the link), and the
 *   round trip a connection idles between two HTTP/1.1 requests holds none of its bytes.
 * - Without them (another server, a timeline that does not add up to the bytes sent): one span from the request's
 *   start to one idle round trip before its response began.
 * Times are kept within [requestStartMs, responseStartMs]: a byte cannot arrive before it was sent, nor after the
 * answer that counted it.
 * A stretch of the timeline longer than `stallMs` with nothing read is a stall: the stream may have been waiting for
 * a retransmission timeout, not sending (100/100 Mbit/s, 80 ms, 0.5 % loss: the server read nothing of one stream for
 * 1.2 s while the link carried 43 Mbit/s), and the caller leaves it out of goodput like the idle round trip between
 * two requests. It is left out from its start to the upload's last read, bytes and time together, because the
 * server's reads lag the link: the bytes a lost segment held back in the receiver's queue during the stall are read
 * after it, over several reads when more than one segment was lost, and a link kept busy by a deep queue carried them
 * all through it. Leaving out the stall alone took its time out of the figure and kept most of those bytes (5/1
 * Mbit/s, 200 ms, 2 % loss, behind a 400 ms queue: 731 ms of stalls left out with 16 kB, where the link carries 87 kB
 * in 731 ms; the upload read +7 and +11 % over iperf3, and a replay of a 100/100 Mbit/s, 80 ms upload 114 Mbit/s).
 * At the upload's last read nothing is held back any more, so up to there bytes and time leave together. Ending the
 * stretch once the reads had caught up with the pace before the stall was tried: in the recorded runs they never did
 * before the last read (the pace before a stall is mostly a request's fast start), so it only added rules.
 */
export function uploadSpans(upload: UploadObservation): UploadPlacement {
  const { requestStartMs, responseStartMs, idleRttMs, bytes } = upload;
  const timeline = usableTimeline(upload.receiveTimeline, bytes);
  const serverEndMs = upload.serverEndMs;
  const rttMs = Number.isFinite(idleRttMs) && idleRttMs > 0 ? idleRttMs : 0;
  if (!timeline || serverEndMs === undefined || serverEndMs === null || !Number.isFinite(serverEndMs)) {
    const sentEndMs = Math.max(requestStartMs, responseStartMs - rttMs);
    return { spans: [{ startMs: requestStartMs, endMs: sentEndMs, bytes }], fromServer: false };
  }
  const offsetMs = responseStartMs - rttMs / 2 - serverEndMs;
  const clamp = (timeMs: number) => Math.min(responseStartMs, Math.max(requestStartMs, timeMs));
  const spans: ByteSpan[] = [];
  for (let index = 1; index < timeline.length; index++) {
    const [fromMs, fromBytes] = timeline[index - 1] as readonly [number, number];
    const [toMs, toBytes] = timeline[index] as readonly [number, number];
    if (toBytes > fromBytes) {
      spans.push({ startMs: clamp(fromMs + offsetMs), endMs: clamp(toMs + offsetMs), bytes: toBytes - fromBytes });
    }
  }
  const first = timeline[0] as readonly [number, number];
  const last = timeline[timeline.length - 1] as readonly [number, number];
  const firstRead = timeline.find(([, count]) => count > 0) ?? last;
  const stallMs = upload.stallMs !== undefined && upload.stallMs > 0 ? upload.stallMs : Number.POSITIVE_INFINITY;
  const stallIndex = timeline.findIndex(
    (point, index) => index > 0 && point[0] - (timeline[index - 1] as readonly [number, number])[0] > stallMs,
  );
  const receiveEndMs = clamp(last[0] + offsetMs);
  return {
    spans,
    fromServer: true,
    receiveStartMs: clamp(first[0] + offsetMs),
    firstReadMs: clamp(firstRead[0] + offsetMs),
    receiveEndMs,
    stall:
      stallIndex > 0
        ? { startMs: clamp((timeline[stallIndex - 1] as readonly [number, number])[0] + offsetMs), endMs: receiveEndMs }
        : null,
  };
}

/** Smallest upload (bytes) and time on the wire (ms) from which `bufferedCopyVerdict` judges. */
const bufferedCheckMinBytes = 50_000;
const bufferedCheckMinMs = 200;
/** The server's handler ran for less than this share of the upload's time on the wire: it read a buffered copy. */
const bufferedCheckMaxShare = 0.2;

/**
 * Whether the server read an upload from a copy something in between had taken in whole first (`copy`), off the
 * link (`link`), or cannot tell (null) (pure). A proxy that buffers request bodies (nginx by default) passes the
 * request on only once it holds all of it, so the server's read times are those of a copy moving between two
 * machines at their speed, not of the link. Placed at those times, the bytes landed in the last milliseconds before
 * the answer and the wait before them went out as the connection's idle gap: behind such a proxy taking bodies in at
 * 80 Mbit/s the upload read 1.8 Gbit/s (e2e). Judged on an upload of at least 50 kB (a smaller one may arrive in one
 * read behind a queue) that spent at least 200 ms on the wire (its request's time less a round trip): `copy` when the
 * server's handler, which starts with the request's headers and ends with its last read, ran for under a fifth of
 * that. On the link itself the body arrives over its sending time, headers first; a deep queue delays the headers and
 * the body alike (the least share among the accuracy bench's 1,526 recorded uploads so judged: 0.28, the next 0.42).
 * A copy's share is the link's speed over the machines': 0.02–0.08 behind the e2e's 80 Mbit/s proxy on a quiet
 * machine, more on a busy one, where the handler's own few milliseconds weigh most on the shortest uploads (a CI run
 * of 2026-11-29 read 880 Mbit/s there under the earlier tenth and 100 ms; its verdicts were not kept).
 */
export function bufferedCopyVerdict(upload: UploadObservation): 'copy' | 'link' | null {
  const { requestStartMs, responseStartMs, idleRttMs, bytes, serverEndMs } = upload;
  if (serverEndMs === undefined || serverEndMs === null || !Number.isFinite(serverEndMs)) return null;
  const rttMs = Number.isFinite(idleRttMs) && idleRttMs > 0 ? idleRttMs : 0;
  const onWireMs = responseStartMs - requestStartMs - rttMs;
  if (bytes < bufferedCheckMinBytes || onWireMs < bufferedCheckMinMs) return null;
  return serverEndMs < bufferedCheckMaxShare * onWireMs ? 'copy' : 'link';
}

/**
 * Whether the uploads judged so far (`bufferedCopyVerdict` counts) show a path that buffers request bodies (pure): at
 * least two copies, not one (a body held back behind a lost segment, HTTP/2's one connection, can reach the server in
 * one burst on a real link too), and at least three for each upload read off the link. Not "none against them": a
 * busy server can take a tenth of an upload's time to read even a local copy, and one such upload among copies would
 * keep the phase placing bytes at the copies' read times (likely what an e2e run of 2026-11-29 on a loaded machine
 * met: 1.17 Gbit/s read through an 80 Mbit/s buffering proxy; its verdicts were not kept). On a link the copy verdict
 * is rare (least share 0.28 against 0.2, above).
 */
export function readsBufferedCopies(verdicts: { copy: number; link: number }): boolean {
  return verdicts.copy >= 2 && verdicts.copy >= 3 * verdicts.link;
}

/**
 * The timeline when it can be trusted: at least two points, times and byte counts never decreasing, starting at
 * 0 bytes and ending at the bytes the request carried; else null.
 */
function usableTimeline(
  timeline: readonly (readonly [number, number])[] | null | undefined,
  bytes: number,
): readonly (readonly [number, number])[] | null {
  if (!Array.isArray(timeline) || timeline.length < 2) return null;
  let previousMs = Number.NEGATIVE_INFINITY;
  let previousBytes = 0;
  for (const point of timeline as readonly unknown[]) {
    if (!Array.isArray(point) || point.length !== 2) return null;
    const [timeMs, count] = point as unknown[];
    if (typeof timeMs !== 'number' || typeof count !== 'number') return null;
    if (!Number.isFinite(timeMs) || !Number.isFinite(count) || timeMs < previousMs || count < previousBytes)
      return null;
    previousMs = timeMs;
    previousBytes = count;
  }
  if (timeline[0]?.[1] !== 0 || previousBytes !== bytes) return null;
  return timeline;
}

/**
 * How long past a stream's first read (ms) its idle gap still runs. While one stream pauses between two requests the
 * others carry more of the link; when it resumes they fall back to their share, but the server reads their bytes a
 * little after they crossed, so what they carried alone at the pause's end was counted just after it, in time when
 * every stream was sending. HTTP uploads then read above what the link can carry: +0.5 to +1.4 % by the medians of
 * the bench's full runs of 2026-11-27…29 on every profile that uploads over requests (25/5 Mbit/s 15 ms: 4.79
 * against a capacity of 4.78; 300/30 20 ms 0.5 %: 29.1 against 28.7), +0.56 % (median) over the 64 HTTP upload
 * phases recorded on the current lab, 12 links. Replayed on those phases (`bench/accuracy/upload-diag.mjs --src`, a
 * copy of the engine per value): 5 ms → −0.03 % (within 1.5 % of iperf3: 40 → 43; 90th percentile of the error
 * 5.3 → 4.0 %), 10 ms −0.19 %, 20 ms −0.27 %; starting the gap 5 ms earlier instead changed nothing (+0.54 %): the
 * bytes that leak are those after the pause. Bytes and time leave together, so a few ms more of gap cost nothing
 * where the link was full. Live, alternating with the engine before it on 7 links (`s60-settle`, `s60-settle2`, 2 runs
 * each): within 1.5 % of iperf3 in 13 of 14 runs, against 9 of 14.
 */
export const resumeSettleMs = 5;

/** A time (client clock, ms) during which some upload stream was not sending at its share of the link. */
export interface GapSpan {
  startMs: number;
  endMs: number;
}

/**
 * Where one finished upload says its stream was not sending (pure), for `GoodputMeter.addGap`, which leaves a gap
 * out of both the bytes and the time of goodput; none without the server's read times.
 * - the round trip its HTTP/1.1 connection idled since the stream's previous upload (`previousReadEndMs`: when the
 *   server read that one's last byte; the first upload of a stream: its handler's start), up to `resumeSettleMs` past
 *   this upload's first read. Not only up to the handler's start: the server's first read returns at once with the
 *   body bytes that arrived while the request was handed to the handler (one or two 1448-byte segments at 1 Mbit/s,
 *   12–24 ms of the link each), so those bytes crossed before it and leave with the gap instead of landing in a
 *   millisecond after it;
 * - its stall (`uploadSpans`): from a wait for a retransmission timeout to the upload's last read.
 * A stream added to running ones spends its first upload in its new connection's slow start (on 100/100 Mbit/s,
 * 80 ms, 0.5 % loss a second stream's first 7.9 MB took 1.85 s at 2–35 Mbit/s). Leaving that upload out as a gap
 * was tried and backed out: with the idle gaps and stalls also out, the figure rested on a few hundred ms of
 * sending in which bytes the server had read late, in bursts, stood for the link (168 Mbit/s on that 100 Mbit/s link).
 */
export function uploadGaps(placement: UploadPlacement, previousReadEndMs: number | null): GapSpan[] {
  if (!placement.fromServer) return [];
  const gaps: GapSpan[] = [
    { startMs: previousReadEndMs ?? placement.receiveStartMs, endMs: placement.firstReadMs + resumeSettleMs },
  ];
  if (placement.stall) gaps.push(placement.stall);
  return gaps.filter((gap) => gap.endMs > gap.startMs);
}
