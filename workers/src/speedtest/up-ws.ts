import { jsonError } from '../shared/json';
import { measurementHeaders } from './limits';

/**
 * `GET /__up-ws` with `Upgrade: websocket`: an upload stream that never pauses. The client sends binary messages; the
 * Worker counts and discards them, and reports the bytes read so far as text, `{"bytes":N,"ms":T}` (T: ms since the
 * socket opened, on the Worker's clock, which only moves on I/O: each message is an I/O event). The engine places
 * each report's bytes by that time, mapped onto its own clock (packages/speedtest, upload-socket.ts `placeReport`).
 * HTTP uploads to `/__up` stay as they are.
 */

/** Most bytes one socket may carry, and how long it may stay open (ms): then the Worker closes it. */
export const maxSocketBytes = 1_000_000_000;
export const maxSocketMs = 60_000;

/** A report goes out once this much time passed on the Worker's clock (ms) or this many bytes arrived since the last. */
const reportEveryMs = 25;
const reportEveryBytes = 256 * 1024;

/** Close codes (RFC 6455 §7.4.1). */
const unsupportedData = 1003;
const policyViolation = 1008;
const messageTooBig = 1009;

/** Bytes in a message, as workerd hands it over (a Blob or an ArrayBuffer for binary), or null for text. */
function binaryBytes(data: unknown): number | null {
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  if (data instanceof Blob) return data.size;
  return null;
}

/** The caps of one socket; tests pass smaller ones. */
export interface SocketLimits {
  readonly maxBytes: number;
  readonly maxMs: number;
}

export function handleUpWs(
  request: Request,
  _env?: unknown,
  limits: SocketLimits = { maxBytes: maxSocketBytes, maxMs: maxSocketMs },
): Response {
  if (request.headers.get('upgrade')?.toLowerCase() !== 'websocket') {
    const headers = measurementHeaders(0);
    headers.set('upgrade', 'websocket');
    return jsonError(426, 'open /__up-ws as a WebSocket (Upgrade: websocket)', {}, { headers });
  }
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  const openedMs = performance.now();
  let bytes = 0;
  let reportedBytes = 0;
  let reportedMs = 0;
  let done = false;
  let trailing: ReturnType<typeof setTimeout> | null = null;
  const report = () => {
    if (trailing !== null) clearTimeout(trailing);
    trailing = null;
    if (done || bytes === reportedBytes) return;
    reportedMs = performance.now() - openedMs;
    reportedBytes = bytes;
    try {
      server.send(JSON.stringify({ bytes, ms: reportedMs }));
    } catch {
      // The client went away between its last message and this report: nothing is left to tell it.
      done = true;
    }
  };
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const close = (code: number, reason: string) => {
    if (trailing !== null) clearTimeout(trailing);
    clearTimeout(deadline);
    if (done) return;
    done = true;
    server.close(code, reason);
  };
  // The time cap holds for a socket that goes quiet too: checked only as messages arrived, a client that opened a
  // socket and sent nothing (or one byte a minute) held it open for as long as it liked.
  deadline = setTimeout(() => close(policyViolation, `at most ${limits.maxMs} ms per socket`), limits.maxMs);
  server.addEventListener('message', (event) => {
    if (done) return;
    const size = binaryBytes(event.data);
    if (size === null) return close(unsupportedData, 'send binary messages only');
    bytes += size;
    const nowMs = performance.now() - openedMs;
    if (bytes > limits.maxBytes) return close(messageTooBig, `at most ${limits.maxBytes} bytes per socket`);
    if (nowMs > limits.maxMs) return close(policyViolation, `at most ${limits.maxMs} ms per socket`);
    if (nowMs - reportedMs >= reportEveryMs || bytes - reportedBytes >= reportEveryBytes) report();
    // The last bytes before a pause (or the end) are reported once no message came for a while.
    else trailing ??= setTimeout(report, reportEveryMs);
  });
  // The client's close is answered with a normal one (its own code may be one that cannot be sent, e.g. 1005).
  server.addEventListener('close', () => close(1000, 'closed'));
  server.addEventListener('error', () => close(1011, 'socket error'));
  return new Response(null, { status: 101, webSocket: client });
}
