// The decoder module the loader imports (`binast.js`, beside the loader): the same contract as the wasm-bindgen
// glue (`default` initialises, `decodeToJavaScript` decodes), but decoding runs in a dedicated Web Worker so the
// page's main thread only compiles the result, as it would a plain script. Where a Worker cannot start (a CSP
// without `worker-src`/`script-src` for this origin, no module Workers), it decodes on the main thread instead.
// Not part of the loader's 2 KB: fetched only when the first BinaryAST response arrives.

type Decode = (bytes: Uint8Array) => Promise<string>;

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

/** BinaryAST -> JavaScript source; rejects with the decoder's error on corrupt input. */
export function decodeToJavaScript(bytes: Uint8Array): Promise<string> {
  if (!decode) return Promise.reject(new Error('binast decoder not initialised'));
  return decode(bytes);
}

async function startHere(): Promise<Decode> {
  const glue = (await import(/* @vite-ignore */ './binast-wasm.js')) as {
    default(init: object): Promise<unknown>;
    decodeToJavaScript(bytes: Uint8Array): string;
  };
  await glue.default({});
  return async (bytes) => glue.decodeToJavaScript(bytes);
}

function startWorker(): Promise<Decode> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./binast-worker.js', import.meta.url), { type: 'module' });
    const pending = new Map<number, { resolve(source: string): void; reject(error: Error): void }>();
    let nextId = 1;
    const call: Decode = (bytes) =>
      new Promise((resolveCall, rejectCall) => {
        const id = nextId++;
        pending.set(id, { resolve: resolveCall, reject: rejectCall });
        worker.postMessage({ id, bytes });
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
