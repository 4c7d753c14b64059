// The decoder's Web Worker: instantiates the wasm-bindgen glue once, reports readiness (message id 0), then answers
// each { id, body } with { id, source } (a Blob: posting it hands the page a reference, where a string would be
// copied onto the page's main thread) or { id, error }. `body` is the response's stream, transferred from the page:
// its chunks are copied into one buffer here as they arrive, while the rest downloads and while the Wasm
// instantiates, so the page's main thread never touches the bytes. The tree itself is decoded once the last byte
// is in: the optimised layout spreads every node over many streams, and the last stream is needed as early as the
// first (see wasm/binast/README.md, "Streaming").
import init, { __wbg_reset_state, decodeToJavaScript } from './binast-wasm.js';

interface Request {
  id: number;
  /** The body as a stream, or (browsers that cannot transfer streams) already read. */
  body?: ReadableStream<Uint8Array>;
  bytes?: Uint8Array;
  /** Content-Length when the server sent one (compressed size: a first guess for the buffer, not a limit). */
  sizeHint: number;
}

const ready = init({}).then(
  () => postMessage({ id: 0 }),
  (error: unknown) => postMessage({ id: 0, error: String(error) }),
);

addEventListener('message', async ({ data }: MessageEvent<Request>) => {
  try {
    const bytes = data.bytes ?? (await readAll(data.body as ReadableStream<Uint8Array>, data.sizeHint));
    await ready;
    postMessage({ id: data.id, source: new Blob([decodeToJavaScript(bytes)], { type: 'text/javascript' }) });
  } catch (error) {
    // A trap (never expected: the decoder returns errors) leaves the instance unusable; start a fresh one.
    if (error instanceof WebAssembly.RuntimeError) __wbg_reset_state();
    postMessage({ id: data.id, error: String(error) });
  }
});

/** The whole body in one buffer, grown by doubling when the hint was short. */
async function readAll(body: ReadableStream<Uint8Array>, sizeHint: number): Promise<Uint8Array> {
  let buffer = new Uint8Array(Math.max(sizeHint, 65_536));
  let length = 0;
  const reader = body.getReader();
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    const { value } = chunk;
    if (length + value.length > buffer.length) {
      const grown = new Uint8Array(Math.max(buffer.length * 2, length + value.length));
      grown.set(buffer.subarray(0, length));
      buffer = grown;
    }
    buffer.set(value, length);
    length += value.length;
  }
  return buffer.subarray(0, length);
}
