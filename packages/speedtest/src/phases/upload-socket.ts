import { serverEndpoint, sleep } from '../probe';
import type { StreamPool } from './bandwidth-streams';
import { claimBytes } from './byte-budget';

/**
 * Upload streams over a WebSocket (`/__up-ws`), when the server offers one.
 * Why: an upload over HTTP/1.1 is a chain of POST requests, and a connection that pauses between requests does not
 * hold the link: each request restarts from the congestion state its connection kept, and each ends on its last
 * segments (a loss there waits for its retransmission with nothing else to send). On 100/100 Mbit/s, 80 ms, 0.5 %
 * loss the wire ran below the link while every stream was "busy", and uploads read −35 … +17 %, where one
 * continuous connection (iperf3's) fills it. A WebSocket is one connection that never pauses: the page keeps its
 * send buffer topped up, and the server reports the bytes it has read. Downloads are one long request per stream
 * for the same reason (bandwidth-streams.ts). Chromium streams a request body only over HTTP/2, which a server such
 * as `wrangler dev` does not speak; a WebSocket works over either.
 */

/**
 * Sockets pay off from this idle round trip (ms) on. On shorter paths an HTTP request of `targetRequestMs` lasts 25
 * round trips or more, so its connection's pause and tail cost little: uploads over requests read within 0.5 % on
 * 25/5 Mbit/s 15 ms 2 %, 100/20 20 ms and 500/50 10 ms, and −35 … +17 % on 100/100 80 ms and 150/150 50 ms.
 */
export const socketMinRttMs = 30;

/**
 * ...and from this bandwidth-delay product on (bits: the download's rate × the idle round trip). A request restarts
 * from its connection's window, and the larger the window the path needs, the longer each request runs below the
 * link. Where it is small, requests read right and sockets did not: 5/1 Mbit/s, 200 ms, 2 % (0.9 Mbit): requests
 * −0.3 %, sockets −2.1 and −10.1 % (two streams that never pause overflowed the 400 ms queue); 40/8 120 ms (4.6 Mbit)
 * and 50/10 40 ms (1.9 Mbit) read within 2.5 % over requests. 100/100 80 ms (7.6 Mbit), 150/150 50 ms (7 Mbit) and
 * 60/60 150 ms (8.6 Mbit) are above it (bench/accuracy/findings.md, `h29-wsab`).
 */
export const socketMinBdpBits = 6e6;

/**
 * Above this download rate (bit/s) uploads stay on HTTP requests: the page itself caps a WebSocket upload. Chromium
 * compresses WebSocket messages whenever the server accepts permessage-deflate (wrangler dev does), and deflating
 * incompressible bytes held sockets to 178–200 Mbit/s on loopback where requests reached 1,348–1,697 (2026-11-27,
 * this machine; a phone is slower). A link this fast downstream may be as fast upstream.
 */
export const socketMaxDownloadBitsPerSecond = 200e6;

/**
 * Whether an upload phase tries WebSockets (pure): always for 'websocket', never for 'http'; for 'auto' on paths of
 * at least `socketMinRttMs` and `socketMinBdpBits` whose download stayed under `socketMaxDownloadBitsPerSecond`
 * (without a download figure: requests).
 */
export function socketUploadsWanted(
  transport: 'auto' | 'http' | 'websocket',
  idleRttMs: number,
  downloadBitsPerSecond: number | null,
): boolean {
  if (transport !== 'auto') return transport === 'websocket';
  if (!(Number.isFinite(idleRttMs) && idleRttMs >= socketMinRttMs)) return false;
  if (downloadBitsPerSecond === null || !Number.isFinite(downloadBitsPerSecond)) return false;
  return (
    downloadBitsPerSecond < socketMaxDownloadBitsPerSecond &&
    (downloadBitsPerSecond * idleRttMs) / 1000 >= socketMinBdpBits
  );
}

/** A report of the server's: bytes read on this socket so far, and when it sent that (its clock, ms). */
interface ServerReport {
  bytes: number;
  ms: number;
}

/**
 * Longest wait for the socket to open, and for its first report once bytes are sent (ms, pure): 3 s, or ten idle
 * round trips on a longer path (an unknown round trip counts as none).
 */
export function socketWaitMs(idleRttMs: number): number {
  return Math.max(3000, 10 * (Number.isFinite(idleRttMs) && idleRttMs > 0 ? idleRttMs : 0));
}

/** Largest message (bytes). */
const maxMessageBytes = 64 * 1024;

/**
 * The random block messages are cut from, one after another (bytes). Not one block per message: a browser and the
 * server may agree on permessage-deflate, whose 32 KiB window would find a 16 KiB message repeated and send a few
 * bytes for it (5/1 Mbit/s, 200 ms, 2 %, 2026-11-27: 28 MB "read" in 12 s on a 1 Mbit/s link, 55 Mbit/s reported).
 * Cut in turn from 1 MiB of random bytes, no content comes back within the window.
 */
const blockBytes = 1024 * 1024;

/**
 * Size of the next message (bytes, pure): what the stream carries in 20 ms, within 4–64 KiB (16 KiB before its first
 * report). The server reads a message whole, so a message is the resolution of its reports: a 64 KiB message is half
 * a second of a 1 Mbit/s link, more than an interval there.
 */
export function messageSizeBytes(bitsPerSecond: number): number {
  if (!(Number.isFinite(bitsPerSecond) && bitsPerSecond > 0)) return 16 * 1024;
  const bytes = Math.round(((bitsPerSecond / 8000) * 20) / 1024) * 1024;
  return Math.min(maxMessageBytes, Math.max(4 * 1024, bytes));
}

/** The send buffer is kept at least this full (bytes), and at most `maxQueuedBytes`. */
const minQueuedBytes = 128 * 1024;
const maxQueuedBytes = 16 * 1024 * 1024;

/** The socket endpoint for a server base URL ('' = this page's origin), as ws: or wss:. */
export function socketUrl(serverUrl: string, base = globalThis.location?.href): string {
  const url = serverEndpoint(serverUrl, '/__up-ws', base);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.href;
}

/** The parsed report, or null when the message is not one (pure). */
export function parseReport(data: unknown): ServerReport | null {
  if (typeof data !== 'string' || data.length > 200) return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const { bytes, ms } = (value ?? {}) as { bytes?: unknown; ms?: unknown };
  if (typeof bytes !== 'number' || !Number.isSafeInteger(bytes) || bytes < 0) return null;
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return null;
  return { bytes, ms };
}

/**
 * How many bytes to keep queued in the socket (pure): what the stream carries in a quarter second or two loaded
 * round trips, whichever is longer, within [minQueuedBytes, maxQueuedBytes]. Enough that the socket never runs dry
 * between two top-ups of the page, and little enough that what is still queued when the phase stops (and is never
 * sent) stays a small part of the bytes moved.
 */
export function queueTargetBytes(bitsPerSecond: number, loadedRttMs: number): number {
  const rttMs = Number.isFinite(loadedRttMs) && loadedRttMs > 0 ? loadedRttMs : 0;
  const rate = Number.isFinite(bitsPerSecond) && bitsPerSecond > 0 ? bitsPerSecond / 8000 : 0;
  return Math.round(Math.min(maxQueuedBytes, Math.max(minQueuedBytes, rate * Math.max(250, 2 * rttMs))));
}

/** Opens a socket; null when it did not open within the timeout or failed (the caller then uploads over HTTP). */
export function openSocket(url: string, signal: AbortSignal, timeoutMs: number): Promise<WebSocket | null> {
  if (typeof WebSocket === 'undefined' || signal.aborted) return Promise.resolve(null);
  return new Promise((resolve) => {
    let socket: WebSocket;
    try {
      socket = new WebSocket(url);
    } catch {
      resolve(null);
      return;
    }
    const settle = (value: WebSocket | null) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', fail);
      socket.removeEventListener('open', opened);
      socket.removeEventListener('error', fail);
      socket.removeEventListener('close', fail);
      if (!value) socket.close();
      resolve(value);
    };
    const opened = () => settle(socket);
    const fail = () => settle(null);
    const timer = setTimeout(fail, timeoutMs);
    signal.addEventListener('abort', fail);
    socket.addEventListener('open', opened);
    socket.addEventListener('error', fail);
    socket.addEventListener('close', fail);
  });
}

/** The random block the messages are cut from (one per phase: the server discards what it reads). */
export function randomBlock(): Uint8Array {
  const block = new Uint8Array(blockBytes);
  // getRandomValues fills at most 65,536 bytes per call.
  for (let offset = 0; offset < block.length; offset += 65_536) {
    crypto.getRandomValues(block.subarray(offset, offset + 65_536));
  }
  return block;
}

/** The next `size` bytes of the block after `offset`, wrapping to its start (pure); and where the next one begins. */
export function nextMessage(block: Uint8Array, offset: number, size: number): { message: Uint8Array; next: number } {
  const start = offset + size <= block.length ? offset : 0;
  return { message: block.subarray(start, start + size), next: start + size };
}

/**
 * One upload stream on an open socket, until the phase drains or stops, or the byte budget is spent and every byte
 * sent has been reported. Each report places the bytes read since the previous one between the two reports' times
 * on the server's clock, mapped onto the page's (`placeReport`). Nothing is left out as a gap or a stall, as
 * iperf3's receiver counts a stream that never pauses: a loss holds the server's reads back for a round trip or more
 * while the link carries the bytes behind it, which are read in a burst after it. Leaving such a stretch out, as an
 * HTTP upload's stall is, kept the burst that followed it in the next reports: 5/1 Mbit/s, 200 ms, 2 % read +60 %
 * with intervals of 0.09 and 11.3 Mbit/s (2026-11-27). One sample per `targetRequestMs` of reports goes to the CSV.
 * Resolves 'carried' when the socket carried the stream to its end; 'idle' when the phase stopped, drained or had
 * spent its budget before the first report (nothing to do); 'failed' when the socket closed, misbehaved or stayed
 * silent before its first report (nothing was counted: the caller can go on over HTTP). Later failures end the phase
 * like a failed request.
 */
export async function runSocketStream(
  pool: StreamPool,
  socket: WebSocket,
  block: Uint8Array,
): Promise<'carried' | 'idle' | 'failed'> {
  const key = {};
  const halfRttMs = Number.isFinite(pool.idleRttMs) && pool.idleRttMs > 0 ? pool.idleRttMs / 2 : 0;
  const startedMs = performance.now();
  pool.inFlightFromMs.set(key, startedMs);
  let sentBytes = 0;
  // Streams start at different places in the block (the phase's streams share it).
  let blockOffset = (pool.streams * 256 * 1024) % block.length;
  let reportedBytes = 0;
  let placedUntilMs = startedMs + halfRttMs;
  let clock: ReportClock | null = null;
  let segment = { startMs: startedMs, bytes: 0 };
  let rateBitsPerSecond = 0;
  // Reports of the last `rateWindowMs`: the stream's rate, for sizing its queue and messages (one report's own
  // span is noise: the server's reads come in bursts).
  const recent: { atMs: number; bytes: number }[] = [];
  let failed: string | null = null;
  let closed = false;

  const onMessage = (event: MessageEvent) => {
    const report = parseReport(event.data);
    if (!report || report.bytes < reportedBytes || report.bytes > sentBytes) {
      failed ??= 'the server sent a message that is not a byte report';
      return;
    }
    const nowMs = performance.now();
    const placed = placeReport(clock, report, nowMs, halfRttMs, placedUntilMs);
    const placedMs = placed.placedMs;
    clock = placed.clock;
    const newBytes = report.bytes - reportedBytes;
    if (newBytes > 0) {
      pool.meter.addSpan(placedUntilMs, placedMs, newBytes);
      segment.bytes += newBytes;
      reportedBytes = report.bytes;
    }
    recent.push({ atMs: placedMs, bytes: reportedBytes });
    while (recent.length > 2 && placedMs - (recent[1] as { atMs: number }).atMs >= rateWindowMs) recent.shift();
    rateBitsPerSecond = recentRate(recent);
    placedUntilMs = placedMs;
    pool.inFlightFromMs.set(key, placedMs);
    if (nowMs - segment.startMs >= pool.targetRequestMs) {
      recordSegment(pool, segment, nowMs);
      segment = { startMs: nowMs, bytes: 0 };
    }
  };
  const onClose = () => {
    closed = true;
  };
  socket.addEventListener('message', onMessage);
  socket.addEventListener('close', onClose);
  socket.addEventListener('error', onClose);
  let silent = false;
  try {
    let budgetSpent = false;
    while (!pool.stop.signal.aborted && !pool.draining && !closed && !failed) {
      if (reportedBytes === 0 && performance.now() - startedMs > socketWaitMs(pool.idleRttMs)) {
        silent = true;
        break;
      }
      const target = queueTargetBytes(rateBitsPerSecond, pool.loadedRttMs());
      while (!budgetSpent && socket.bufferedAmount < target) {
        const size = claimBytes(pool, messageSizeBytes(rateBitsPerSecond));
        if (size <= 0) {
          budgetSpent = true;
          break;
        }
        const cut = nextMessage(block, blockOffset, size);
        blockOffset = cut.next;
        socket.send(cut.message);
        sentBytes += size;
      }
      if (budgetSpent && reportedBytes >= sentBytes) break;
      await sleep(4, pool.stop.signal);
    }
    if (reportedBytes === 0) {
      // Never counted: hand the bytes back, so the HTTP path starts from the same budget.
      pool.issuedBytes -= sentBytes;
      sentBytes = 0;
      return closed || failed || silent ? 'failed' : 'idle';
    }
    if (failed && !pool.stop.signal.aborted) {
      pool.failure ??= new Error(`upload socket: ${failed}`);
      pool.stop.abort('an upload socket failed');
    }
    if (closed && !pool.draining && !pool.stop.signal.aborted && reportedBytes < sentBytes) {
      pool.failure ??= new Error('upload socket: the server closed it before reading every byte');
      pool.stop.abort('an upload socket closed');
    }
    return 'carried';
  } finally {
    // Bytes still queued in the page never left it: not moved.
    pool.issuedBytes -= Math.min(sentBytes - reportedBytes, socket.bufferedAmount);
    if (segment.bytes > 0) recordSegment(pool, segment, performance.now());
    socket.removeEventListener('message', onMessage);
    socket.removeEventListener('close', onClose);
    socket.removeEventListener('error', onClose);
    if (socket.readyState === WebSocket.OPEN || socket.readyState === WebSocket.CONNECTING) socket.close(1000);
    pool.inFlightFromMs.delete(key);
  }
}

/**
 * The server's clock as seen from the page (one per socket): the least (arrival − server time) of its reports so far,
 * and the last server time, or null before the first report.
 */
export interface ReportClock {
  offsetMs: number;
  lastServerMs: number;
}

/**
 * When the server read a report's bytes, on the page's clock (ms, pure), and the socket's clock after it. The
 * server's time is mapped by the least (arrival − server time) seen, less half the idle round trip: a report that
 * arrived late because the way back lost a packet (TCP holds every report behind it for a round trip or more) is
 * still placed when its bytes were read, as iperf3's receiver counts them by its own clock (placed by arrival,
 * that stretch's bytes would all fall into a later interval). Never before `placedUntilMs` (the previous report's
 * place) nor after the arrival less half the round trip; a server time that goes backwards is not trusted: that
 * report is placed by its arrival.
 */
export function placeReport(
  clock: ReportClock | null,
  report: ServerReport,
  arrivalMs: number,
  halfRttMs: number,
  placedUntilMs: number,
): { placedMs: number; clock: ReportClock | null } {
  const byArrivalMs = Math.max(placedUntilMs, arrivalMs - halfRttMs);
  if (clock !== null && report.ms < clock.lastServerMs) return { placedMs: byArrivalMs, clock };
  const offsetMs = Math.min(clock?.offsetMs ?? Number.POSITIVE_INFINITY, arrivalMs - report.ms);
  const placedMs = Math.min(byArrivalMs, Math.max(placedUntilMs, report.ms + offsetMs - halfRttMs));
  return { placedMs, clock: { offsetMs, lastServerMs: report.ms } };
}

/** How far back the stream's rate looks (ms). */
const rateWindowMs = 500;

/** Rate (bit/s) over a run of reports at least 100 ms long, oldest first (pure); 0 when shorter. */
export function recentRate(reports: readonly { atMs: number; bytes: number }[]): number {
  const first = reports[0];
  const last = reports[reports.length - 1];
  if (!first || !last || last.atMs - first.atMs < 100) return 0;
  return ((last.bytes - first.bytes) * 8000) / (last.atMs - first.atMs);
}

/** One CSV row for the bytes a socket's reports counted over a stretch of time. */
function recordSegment(pool: StreamPool, segment: { startMs: number; bytes: number }, endMs: number): void {
  const durationMs = Math.max(0, endMs - segment.startMs);
  const sample = {
    kind: 'upload' as const,
    bytes: segment.bytes,
    receivedBytes: segment.bytes,
    startMs: segment.startMs - pool.testOriginMs,
    durationMs,
    bitsPerSecond: durationMs >= 10 ? (segment.bytes * 8000) / durationMs : null,
    ttfbMs: 0,
    serverMs: null,
    pingMs: 0,
    parallelStreams: pool.streams,
    load: 'upload' as const,
    timingSource: 'server-report' as const,
  };
  pool.samples.push(sample);
  pool.onSample(sample);
}
