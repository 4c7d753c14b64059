// The decoder's Web Worker: compiles the decode-only module once, reports readiness (message id 0), then answers
// each { id, body, keepAs } with { id, source } (a Blob: posting it hands the page a reference, where a string would
// be copied onto the page's main thread) or { id, error }. `body` is the response's stream, transferred from the page,
// so the page's main thread never touches the bytes. Where the browser has JavaScript Promise Integration the
// decoder reads the stream as it arrives (wasm/binast/js/decode.js): decoding keeps pace with the download instead
// of starting after the last byte. Every decode runs in a fresh instance of the module, so a trap cannot reach the
// next script. With `keepAs` (the script's URL and its BinaryAST ETag) it holds the decoded copy until the page
// sends { keep: id, ran } once it ran the script, then stores it for later views (decoded-cache.ts) if it ran, off
// the page's main thread.
import init, { decodeStream } from './binast-wasm.js';
import { type KeepAs, keepDecoded } from './decoded-cache';

interface Request {
  id: number;
  /** The body as a stream, or (browsers that cannot transfer streams) already read. */
  body?: ReadableStream<Uint8Array>;
  bytes?: Uint8Array;
  keepAs?: KeepAs;
  /** The page ran (`ran`) or could not run the script of request `keep`: store its decoded copy, or let it go. */
  keep?: number;
  ran?: boolean;
}

/** Decoded copies waiting for the page's word to store them, by request id. */
const toKeep = new Map<number, { keepAs: KeepAs; source: Blob }>();

const ready = init({}).then(
  () => postMessage({ id: 0 }),
  (error: unknown) => postMessage({ id: 0, error: String(error) }),
);

addEventListener('message', async ({ data }: MessageEvent<Request>) => {
  if (data.keep !== undefined) {
    const copy = toKeep.get(data.keep);
    toKeep.delete(data.keep);
    if (copy && data.ran) await keepDecoded(copy.keepAs.url, copy.keepAs.etag, copy.source);
    return;
  }
  try {
    await ready;
    const decoded = await decodeStream((data.bytes ?? data.body) as Uint8Array | ReadableStream<Uint8Array>);
    const source = new Blob([decoded], { type: 'text/javascript' });
    postMessage({ id: data.id, source });
    if (data.keepAs) toKeep.set(data.id, { keepAs: data.keepAs, source });
  } catch (error) {
    postMessage({ id: data.id, error: String(error) });
  }
});
