import { download, isAbort, type ProbeResult, upload } from '../probe';
import type { GoodputMeter } from '../stats/goodput';
import { nextRequestBytes } from '../stats/ramp';
import { bufferedCopyVerdict, readsBufferedCopies, uploadGaps, uploadSpans } from '../stats/upload-spans';
import type { RequestSample, SpeedTestOptions } from '../types';
import { smallestUploadRequestBytes, stallThresholdMs } from './bandwidth-request';
import { transferSample } from './bandwidth-summary';
import { claimBytes } from './byte-budget';
import { openSocket, randomBlock, runSocketStream, socketUrl, socketWaitMs } from './upload-socket';

/** What a bandwidth phase's streams share with each other and with the controller that adds them. */
export interface StreamPool {
  readonly direction: 'download' | 'upload';
  readonly options: SpeedTestOptions;
  readonly testOriginMs: number;
  /** Median idle round trip (ms): taken out of upload durations. */
  readonly idleRttMs: number;
  /** Median round trip under this phase's load so far (ms; NaN before the first loaded ping): tells stalls apart. */
  readonly loadedRttMs: () => number;
  /** How long each request should last (ms); the next request is sized from the last one's rate. */
  readonly targetRequestMs: number;
  readonly maxRequestBytes: number;
  /** Payload for uploads, at least `maxUploadRequestBytes` long. */
  readonly payload: Blob;
  readonly meter: GoodputMeter;
  /** Aborts every request of the phase. */
  readonly stop: AbortController;
  readonly onSample: (sample: RequestSample) => void;
  readonly samples: RequestSample[];
  /**
   * For each request in flight, the instant (ms) from which its stream may still add bytes or an idle gap: its start,
   * or for an upload the end of its stream's previous upload as the server read it (the gap up to this request's
   * first byte is only known once it has finished). The meter's intervals are complete up to the oldest of them.
   */
  readonly inFlightFromMs: Map<object, number>;
  /** One promise per stream, in the order they were added. */
  readonly streamsDone: Promise<void>[];
  streams: number;
  /**
   * Size (bytes) the latest finished request chose for its stream's next one. A stream added later starts there: from
   * `minRequestBytes` it spent its first requests mostly waiting for round trips (100 kB requests on a 100 Mbit/s,
   * 80 ms path ran at 1–2 Mbit/s for seconds) and never got a congestion window of its own.
   */
  nextRequestBytes: number;
  issuedBytes: number;
  /** The first request error that was not an abort; it ends the phase. */
  failure: unknown;
  /** Set when the phase has decided: no new request starts, the ones in flight may finish. */
  draining: boolean;
  /** Upload streams that ran over a WebSocket and over HTTP requests (count). */
  socketStreams: number;
  httpStreams: number;
  /** Upload streams try a WebSocket first; false when the phase does not want them, or once one failed. */
  socketsWork: boolean;
  /** The random block socket messages are cut from, made by the first socket stream. */
  socketBlock: Uint8Array | null;
  /** Uploads judged read from a proxy's buffered copy and read off the link (`bufferedCopyVerdict`), counts. */
  readVerdicts: { copy: number; link: number };
  /**
   * Set once the uploads judged so far show that the server reads buffered copies (`readsBufferedCopies`): from then
   * on every upload's bytes are spread over its request, as for a server that sends no read times.
   */
  serverReadsCopies: boolean;
}

/** Starts streams until `targetStreams` run. */
export function addStreams(pool: StreamPool, targetStreams: number): void {
  while (pool.streams < targetStreams) {
    pool.streams++;
    pool.streamsDone.push(runStream(pool));
  }
}

/** Resolves once every stream has returned, including streams added while waiting. */
export async function allStreamsReturned(pool: StreamPool): Promise<void> {
  let seen = 0;
  while (seen < pool.streamsDone.length) {
    const batch = pool.streamsDone.slice(seen);
    seen = pool.streamsDone.length;
    await Promise.all(batch);
  }
}

/**
 * One stream: requests one after another until the budget or the stop. Uploads are sized to last about
 * `targetRequestMs` (an upload's bytes are only known once it has finished). Downloads are one long request each
 * (`downloadRequestBytes`), counted chunk by chunk and cut when the phase decides: a connection that never waits
 * between requests keeps its congestion window open like iperf3's single stream, while a chain of requests idled
 * one round trip per request, and a request's lost tail waited for a retransmission timeout.
 */
async function runStream(pool: StreamPool): Promise<void> {
  if (pool.direction === 'upload' && (await uploadOverSocket(pool))) return;
  if (pool.stop.signal.aborted || pool.draining) return;
  let requestBytes = pool.direction === 'download' ? downloadRequestBytes(pool.options) : pool.nextRequestBytes;
  const stream: StreamState = { lastReadEndMs: null };
  while (!pool.stop.signal.aborted && !pool.draining) {
    const sizeBytes = claimBytes(pool, requestBytes);
    if (sizeBytes <= 0) return;
    if (pool.direction === 'upload' && !stream.counted) {
      stream.counted = true;
      pool.httpStreams++;
    }
    const nextBytes = await transferOnce(pool, stream, sizeBytes);
    if (nextBytes === null) return;
    if (pool.direction === 'upload') requestBytes = nextBytes;
  }
}

/**
 * An upload stream over a WebSocket (upload-socket.ts) when the phase wants sockets and none failed yet; true when
 * the socket carried the stream (or had nothing to send), false when it should go on over HTTP requests.
 */
async function uploadOverSocket(pool: StreamPool): Promise<boolean> {
  if (!pool.socketsWork) return false;
  const socket = await openSocket(socketUrl(pool.options.serverUrl), pool.stop.signal, socketWaitMs(pool.idleRttMs));
  if (socket) {
    pool.socketBlock ??= randomBlock();
    const outcome = await runSocketStream(pool, socket, pool.socketBlock);
    if (outcome === 'carried') pool.socketStreams++;
    if (outcome !== 'failed') return true;
  }
  pool.socketsWork = false;
  return false;
}

/**
 * Size of each download request (bytes, pure): a fair share of the direction's byte budget among the most streams
 * that may run, so every stream gets a request, within [minRequestBytes, maxDownloadRequestBytes] (the maximum, the
 * server's cap, wins over the minimum). Bytes not received before the phase ends never cross the link (the request
 * is cut).
 */
export function downloadRequestBytes(options: {
  maxBytesPerDirection: number;
  maxStreams: number;
  minRequestBytes: number;
  maxDownloadRequestBytes: number;
}): number {
  const shareBytes = Math.ceil(options.maxBytesPerDirection / Math.max(1, options.maxStreams));
  // When the smallest request exceeds the largest, the largest wins: it is the server's cap.
  return Math.min(options.maxDownloadRequestBytes, Math.max(options.minRequestBytes, shareBytes));
}

/** What a stream remembers between its requests. */
interface StreamState {
  /** When the server read the last byte of this stream's previous upload (client clock, ms); null before one. */
  lastReadEndMs: number | null;
  /** Counted in `httpStreams` (an upload stream that sent a request). */
  counted?: boolean;
}

/** One request and its sample; the size of the next request, or null when the stream should end. */
async function transferOnce(pool: StreamPool, stream: StreamState, sizeBytes: number): Promise<number | null> {
  const startMs = performance.now();
  const request = {};
  pool.inFlightFromMs.set(request, Math.min(startMs, stream.lastReadEndMs ?? startMs));
  const parallelStreams = pool.streams;
  try {
    const probe = await sendRequest(pool, stream, sizeBytes);
    // A cut download moved only what arrived; its sample says so (and its rate is that of those bytes).
    const movedBytes = probe.cut ? (probe.receivedBytes ?? 0) : sizeBytes;
    const sample = transferSample(
      pool.direction,
      probe,
      movedBytes,
      parallelStreams,
      pool.idleRttMs,
      pool.testOriginMs,
    );
    pool.samples.push(sample);
    pool.onSample(sample);
    const { minRequestBytes } = pool.options;
    // Uploads may shrink below `minRequestBytes`: on a slow uplink a request of that size outlasts the time budget.
    const floorBytes = pool.direction === 'upload' ? smallestUploadRequestBytes(minRequestBytes) : minRequestBytes;
    const next = nextRequestBytes(sizeBytes, sample.durationMs, pool.targetRequestMs, floorBytes, pool.maxRequestBytes);
    pool.nextRequestBytes = next;
    return next;
  } catch (error) {
    if (isAbort(error, pool.stop.signal)) return null;
    // A failed request ends the phase: the figures would silently lack a stream otherwise.
    pool.failure ??= error;
    pool.stop.abort('a request failed');
    return null;
  } finally {
    pool.inFlightFromMs.delete(request);
  }
}

/** The request itself; its bytes go into the goodput meter as they move. */
async function sendRequest(pool: StreamPool, stream: StreamState, sizeBytes: number): Promise<ProbeResult> {
  const context = { serverUrl: pool.options.serverUrl, signal: pool.stop.signal };
  if (pool.direction === 'download') {
    return download(context, sizeBytes, (fromMs, toMs, chunkBytes) => pool.meter.addSpan(fromMs, toMs, chunkBytes));
  }
  const probe = await upload(context, sizeBytes, pool.payload);
  const observation = {
    requestStartMs: probe.requestStartMs,
    responseStartMs: probe.responseStartMs,
    idleRttMs: pool.idleRttMs,
    bytes: sizeBytes,
    receiveTimeline: probe.receiveTimeline,
    serverEndMs: probe.serverEndMs,
    stallMs: stallThresholdMs(pool.idleRttMs, pool.loadedRttMs()),
  };
  // A path that buffers bodies buffers every one of them: the phase stops trusting the server's read times.
  const verdict = bufferedCopyVerdict(observation);
  if (verdict) pool.readVerdicts[verdict] += 1;
  pool.serverReadsCopies ||= readsBufferedCopies(pool.readVerdicts);
  // At the times the server read them when it said so and read them off the link, else spread from the request's
  // start to one round trip before the response began (upload-spans.ts).
  const spans = uploadSpans(pool.serverReadsCopies ? { ...observation, receiveTimeline: null } : observation);
  pool.meter.addSpans(spans.spans);
  // The server's read times show when this stream was not sending: the round trip its connection idled between its
  // previous upload and this one's first read, and a retransmission-timeout stall up to the upload's last read
  // (upload-spans.ts). They are left out of goodput, bytes and time together (GoodputMeter.addGap).
  for (const gap of uploadGaps(spans, stream.lastReadEndMs)) pool.meter.addGap(gap.startMs, gap.endMs);
  if (pool.serverReadsCopies) {
    // Behind a buffering proxy the stream sends nothing from when its body was in to its next request: the answer
    // waits for the proxy to pass the copy on and the server to read it. Left out like the round trip a connection
    // idles between two requests above, from where the spread ended.
    const sentEndMs = spans.spans.at(-1)?.endMs ?? probe.requestStartMs;
    if (stream.lastReadEndMs !== null && probe.requestStartMs > stream.lastReadEndMs) {
      pool.meter.addGap(stream.lastReadEndMs, probe.requestStartMs);
    }
    stream.lastReadEndMs = sentEndMs;
  } else {
    stream.lastReadEndMs = spans.fromServer ? spans.receiveEndMs : null;
  }
  return probe;
}
