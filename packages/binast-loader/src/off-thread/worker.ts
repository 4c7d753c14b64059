// The decoder's Web Worker: compiles the decode-only module once, reports readiness (message id 0), then answers
// each { id, body } with { id, source } (a Blob: posting it hands the page a reference, where a string would be
// copied onto the page's main thread) or { id, error }. `body` is the response's stream, transferred from the page,
// so the page's main thread never touches the bytes. Where the browser has JavaScript Promise Integration the
// decoder reads the stream as it arrives (wasm/binast/js/decode.js): decoding keeps pace with the download instead
// of starting after the last byte. Every decode runs in a fresh instance of the module, so a trap cannot reach the
// next script.
import init, { decodeStream } from './binast-wasm.js';

interface Request {
  id: number;
  /** The body as a stream, or (browsers that cannot transfer streams) already read. */
  body?: ReadableStream<Uint8Array>;
  bytes?: Uint8Array;
}

const ready = init({}).then(
  () => postMessage({ id: 0 }),
  (error: unknown) => postMessage({ id: 0, error: String(error) }),
);

addEventListener('message', async ({ data }: MessageEvent<Request>) => {
  try {
    await ready;
    const source = await decodeStream((data.bytes ?? data.body) as Uint8Array | ReadableStream<Uint8Array>);
    postMessage({ id: data.id, source: new Blob([source], { type: 'text/javascript' }) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error) });
  }
});
