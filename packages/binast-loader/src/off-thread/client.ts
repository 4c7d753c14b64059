// The decoder module the loader imports (`binast.js`, beside the loader): `default` initialises,
// `decodeToJavaScript(response)` decodes a BinaryAST response. Decoding runs in a dedicated Web Worker and the
// response's body streams straight into it (a transferred ReadableStream), so the page's main thread neither reads
// the bytes nor decodes: it only compiles the result, as it would a plain script. Where a Worker cannot start (a CSP
// without `worker-src`/`script-src` for this origin, no module Workers), it decodes on the main thread instead.
// Not part of the loader's 2 KB: fetched only when the first BinaryAST response arrives.

type Decode = (response: Response) => Promise<string>;

interface Reply {
  id: number;
  source?: string;
  error?: string;
}

let decode: Decode | undefined;

/** Starts the Worker (or, failing that, the glue on this thread); rejects when the decoder cannot load at all. */
export default async function init(): Promise<void> {
  decode ??= await startWorker().catch(startHere);
}

/** A BinaryAST response -> JavaScript source; rejects with the decoder's error on corrupt input. */
export function decodeToJavaScript(response: Response): Promise<string> {
  if (!decode) return Promise.reject(new Error('binast decoder not initialised'));
  return decode(response);
}

async function startHere(): Promise<Decode> {
  const glue = (await import(/* @vite-ignore */ './binast-wasm.js')) as typeof import('./binast-wasm.js');
  await glue.default({});
  return async (response) => {
    try {
      return glue.decodeToJavaScript(new Uint8Array(await response.arrayBuffer()));
    } catch (error) {
      // A trap leaves the instance unusable; the next script gets a fresh one.
      if (error instanceof WebAssembly.RuntimeError) glue.__wbg_reset_state();
      throw error;
    }
  };
}

function startWorker(): Promise<Decode> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./binast-worker.js', import.meta.url), { type: 'module' });
    const pending = new Map<number, { resolve(source: string): void; reject(error: Error): void }>();
    let nextId = 1;
    const call: Decode = (response) =>
      new Promise((resolveCall, rejectCall) => {
        const id = nextId++;
        const body = response.body;
        if (!body) return rejectCall(new Error('response has no body'));
        pending.set(id, { resolve: resolveCall, reject: rejectCall });
        const sizeHint = Number(response.headers.get('content-length')) || 0;
        try {
          // Transferring the stream hands its chunks to the Worker as they arrive.
          worker.postMessage({ id, body, sizeHint }, [body]);
        } catch {
          // Browsers that cannot transfer streams: the whole body, read here, moved (not copied) to the Worker.
          new Response(body)
            .arrayBuffer()
            .then((buffer) => worker.postMessage({ id, bytes: new Uint8Array(buffer) }, [buffer]), rejectCall);
        }
      });
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'decoder worker failed'));
      for (const waiting of pending.values()) waiting.reject(new Error('decoder worker failed'));
      pending.clear();
    };
    worker.onmessage = ({ data }: MessageEvent<Reply>) => {
      if (data.id === 0) return data.error ? reject(new Error(data.error)) : resolve(call);
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.error !== undefined) waiting?.reject(new Error(data.error));
      else waiting?.resolve(data.source ?? '');
    };
  });
}
