import { jsonError } from '../shared/json';
import { maxUploadBytes, measurementHeaders } from './limits';
import { parseBytesParam } from './params';
import { ReceiveTimeline } from './receive-timeline';

/** What the server saw of one upload; returned as JSON so clients can compare client and server byte counts. */
export interface UploadReceipt {
  receivedBytes: number;
  /** The `bytes` query parameter when the client declared one, else null. */
  declaredBytes: number | null;
  /** From the handler's start until the last body byte was read (ms); coarse inside Workers (clock moves on I/O). */
  receiveDurationMs: number;
  /**
   * `[offsetMs, bytes]`: bytes read by then, from the handler's start (ms), at most one point per 5 ms, first [0, 0].
   * The engine places an upload's bytes at the times the server read them (packages/speedtest). The Workers clock only
   * moves on I/O, and reading a body chunk is I/O, so each point is the time of a read.
   */
  receiveTimeline: [number, number][];
}

/**
 * Reads and discards a body, counting it into `timeline` as it arrives (`nowMs` is the handler's clock); stops with
 * `tooLarge` as soon as it passes `maxBytes`.
 */
async function countBody(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  timeline: ReceiveTimeline,
  nowMs: () => number,
): Promise<{ bytes: number; tooLarge: boolean; failed?: string }> {
  if (!body) return { bytes: 0, tooLarge: false };
  const reader = body.getReader();
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch (error) {
      // The client went away (or its connection broke) mid-body: an answer, not an uncaught exception.
      return { bytes: timeline.bytes, tooLarge: false, failed: String(error) };
    }
    const { done, value } = read;
    if (done) return { bytes: timeline.bytes, tooLarge: false };
    timeline.add(nowMs(), value.byteLength);
    const bytes = timeline.bytes;
    if (bytes > maxBytes) {
      await reader.cancel('upload over the cap');
      return { bytes, tooLarge: true };
    }
  }
}

/** `POST /__up[?bytes=N]`: counts and discards the body; answers how much arrived. */
export async function handleUp(request: Request): Promise<Response> {
  const startedMs = performance.now();
  const rawBytes = new URL(request.url).searchParams.getAll('bytes');
  let declaredBytes: number | null = null;
  if (rawBytes.length > 0) {
    const parsed = parseBytesParam(rawBytes, maxUploadBytes, 413);
    if (!parsed.ok) return jsonError(parsed.status, parsed.error, parsed.detail, { headers: measurementHeaders(0) });
    declaredBytes = parsed.bytes;
  }
  const contentLength = Number(request.headers.get('content-length') ?? '0');
  if (contentLength > maxUploadBytes) {
    return jsonError(
      413,
      `upload must be at most ${maxUploadBytes} bytes`,
      { contentLength, maxUploadBytes },
      {
        headers: measurementHeaders(0),
      },
    );
  }
  const timeline = new ReceiveTimeline();
  const counted = await countBody(request.body, maxUploadBytes, timeline, () => performance.now() - startedMs);
  const receiveDurationMs = performance.now() - startedMs;
  const headers = measurementHeaders(receiveDurationMs);
  if (counted.tooLarge) {
    return jsonError(
      413,
      `upload must be at most ${maxUploadBytes} bytes`,
      { receivedBytes: counted.bytes },
      { headers },
    );
  }
  if (counted.failed !== undefined) {
    return jsonError(
      400,
      'the upload body broke off before its end',
      { receivedBytes: counted.bytes, reason: counted.failed },
      { headers },
    );
  }
  headers.set('x-received-bytes', String(counted.bytes));
  const receipt: UploadReceipt = {
    receivedBytes: counted.bytes,
    declaredBytes,
    receiveDurationMs,
    receiveTimeline: timeline.points(),
  };
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(receipt), { headers });
}
