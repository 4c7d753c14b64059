import { jsonError } from '../shared/json';
import { maxDownloadBytes, measurementHeaders } from './limits';
import { parseBytesParam } from './params';

// Chunks are made as the client reads them, so a 1 GB response holds a few 64 KiB chunks at a time, never 1 GB.
const chunkBytes = 64 * 1024;
const zeroChunk = new Uint8Array(chunkBytes);

/**
 * A stream of exactly `bytes` zero bytes, produced on demand (the reader's pace sets the pace). Wrapped in a
 * FixedLengthStream so the response carries `Content-Length` instead of chunked encoding.
 */
function generatedBody(bytes: number): ReadableStream<Uint8Array> {
  let remaining = bytes;
  const source = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (remaining <= 0) {
        controller.close();
        return;
      }
      const size = Math.min(chunkBytes, remaining);
      // A fresh view per chunk: the sink may take ownership of what it is handed.
      controller.enqueue(size === chunkBytes ? zeroChunk.slice() : new Uint8Array(size));
      remaining -= size;
    },
  });
  const fixed = new FixedLengthStream(bytes);
  void source.pipeTo(fixed.writable).catch(() => {
    // The client went away mid-download (an aborted test): nothing to clean up.
  });
  return fixed.readable;
}

/** `GET /__down?bytes=N`: exactly N bytes of payload; `bytes=0` is the latency probe. */
export function handleDown(request: Request): Response {
  const startedMs = performance.now();
  const parsed = parseBytesParam(new URL(request.url).searchParams.getAll('bytes'), maxDownloadBytes);
  if (!parsed.ok) return jsonError(parsed.status, parsed.error, parsed.detail, { headers: measurementHeaders(0) });
  const headers = measurementHeaders(performance.now() - startedMs);
  headers.set('content-type', 'application/octet-stream');
  // Stated explicitly (FixedLengthStream would add it on the wire) so a HEAD answer carries the GET's length too.
  headers.set('content-length', String(parsed.bytes));
  return new Response(parsed.bytes === 0 ? '' : generatedBody(parsed.bytes), { headers });
}
