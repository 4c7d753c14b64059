import type { ImageScanner, ScanResult } from './layout';

type Read = ReadableStreamReadResult<Uint8Array>;

/** The bytes read ahead of the client, and the reader positioned after them (with a read possibly in flight). */
export interface ReadAhead {
  result: ScanResult;
  chunks: Uint8Array[];
  bufferedBytes: number;
  reader: ReadableStreamDefaultReader<Uint8Array>;
  pending: Promise<Read> | undefined;
  ended: boolean;
  /** The answer was cut short by `maxWaitMs`: a later request may get further, so it is not worth caching. */
  timedOut: boolean;
  /**
   * The origin's body failed while it was read ahead (a reset connection): the buffered bytes are still sent, then
   * the client's stream fails with this error, as it would have without the Worker.
   */
  failed?: unknown;
}

const timedOut = Symbol('timed out');

/**
 * Feeds the body to the scanner until it answers, `maxBytes` are held or `maxWaitMs` has passed, whichever is first.
 * Never reads the whole file unless the answer is at its end. A read still pending at the deadline is kept for the
 * stream that forwards the rest, so no byte is lost. Never rejects: a body that fails is recorded in `failed`.
 */
export async function readAhead(
  body: ReadableStream<Uint8Array>,
  scanner: ImageScanner,
  maxBytes: number,
  maxWaitMs: number,
): Promise<ReadAhead> {
  const reader = body.getReader();
  const state: ReadAhead = {
    result: { kind: 'more' },
    chunks: [],
    bufferedBytes: 0,
    reader,
    pending: undefined,
    ended: false,
    timedOut: false,
  };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), maxWaitMs);
  });
  try {
    while (state.result.kind === 'more' && state.bufferedBytes < maxBytes) {
      state.pending ??= reader.read();
      let read: Read | typeof timedOut;
      try {
        read = await Promise.race([state.pending, deadline]);
      } catch (error) {
        state.pending = undefined;
        state.failed = error;
        state.result = { kind: 'invalid', reason: `the origin's body failed: ${String(error)}` };
        break;
      }
      if (read === timedOut) {
        state.timedOut = true;
        break;
      }
      state.pending = undefined;
      if (read.done) {
        state.ended = true;
        state.result = scanner.finish();
        break;
      }
      state.chunks.push(read.value);
      state.bufferedBytes += read.value.byteLength;
      state.result = scanner.push(read.value);
    }
    if (state.result.kind === 'more') state.result = scanner.finish();
  } finally {
    clearTimeout(timer);
  }
  return state;
}

/**
 * The full body again: the buffered chunks, then whatever the reader still has, each of those also handed to
 * `observe` (the handler's scanner, when a deadline cut its read short). Cancelling cancels the origin.
 */
export function replay(ahead: ReadAhead, observe?: (chunk: Uint8Array) => void): ReadableStream<Uint8Array> {
  const queued = [...ahead.chunks];
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = queued.shift();
      if (next) return controller.enqueue(next);
      if (ahead.failed !== undefined) return controller.error(ahead.failed);
      if (ahead.ended) return controller.close();
      const read = await (ahead.pending ?? ahead.reader.read());
      ahead.pending = undefined;
      if (read.done) return controller.close();
      observe?.(read.value);
      controller.enqueue(read.value);
    },
    cancel(reason) {
      return ahead.reader.cancel(reason);
    },
  });
}
