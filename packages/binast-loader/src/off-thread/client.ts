// The decoder module the loader imports (`binast.js`, beside the loader): `default` initialises,
// `decodeToJavaScript(response, keepAs)` decodes a BinaryAST response into a Blob of JavaScript (and how to keep it
// for later views: decoded-cache.ts). Decoding runs in a dedicated Web Worker and the response's body streams
// straight into it (a transferred ReadableStream); the Worker answers with a Blob, which the page runs from a `blob:`
// URL (blob-script.ts) or, for small scripts, inline, so the page's main thread neither reads the bytes nor decodes.
// Where a Worker cannot start (a CSP without `worker-src`/`script-src` for this origin, no module Workers), it
// decodes on the main thread instead.
// It also holds the loader's whole BinaryAST path (`prepareScript`: probe, fetch, decode, execution), so the
// loader's 2 KB only decides and runs plain scripts. Not part of those 2 KB: imported only when the loader's cost
// model sends a script to BinaryAST.
import type { BinastJob, Runner } from '../decoder';
import { binastAccept, isBinastContentType } from '../media-type';
import { decoderCookie } from '../model';
import { measure } from '../record';
import { markDecoder, setSiteCookie } from '../visitor-marks';
import { runBlob } from './blob-script';
import { type KeepAs, keepDecoded, readDecoded, storedVersions } from './decoded-cache';
import { probeEnvironment, runInline } from './inline';
import { withLateOnload } from './late-onload';
import { runsFromBlob } from './run-way';
import { scriptText } from './script-charset';

/**
 * Decodes a BinaryAST response into a Blob of JavaScript. With `keepAs`, `keep()` stores the decoded copy for later
 * views (decoded-cache.ts): the loader calls it once the script ran, so the write does not compete with the script's
 * compile and execution for the CPU (written as soon as the source was handed over, it added up to 2 ms to d3's
 * main-thread time in bench:binast on this 2-core machine, 2026-11-27).
 */
type Decode = (response: Response, keepAs?: KeepAs) => Promise<Decoded>;

interface Decoded {
  source: Blob;
  /** Stores the copy when `ran` (the script parsed and ran), else lets it go: nothing unverified is kept. */
  keep(ran: boolean): void;
}

interface Reply {
  id: number;
  source?: Blob;
  error?: string;
}

let decode: Decode | undefined;
let started: Promise<void> | undefined;

/**
 * Starts the Worker (or, failing that, the glue on this thread) once; rejects when the decoder cannot load at all,
 * and keeps rejecting: later scripts fall back at once instead of retrying a broken decoder.
 */
export default function init(): Promise<void> {
  started ??= (async () => {
    decode = await startWorker().then(({ call }) => call, startHere);
    markStarted();
  })();
  return started;
}

/**
 * For a later view (remember.ts, after this page's scripts ran): loads the decoder once, so its files are in the HTTP
 * cache and it is known to start here, marks it, and stops its Worker again: a Worker left idle in a page that has
 * nothing to decode would hold its memory and its Wasm instance until the visitor leaves. (Whether it also cost the
 * next view time, the bench's repeat view did not resolve: bench/loader/README.md, "Repeat views".) A page that
 * already decodes keeps its running decoder.
 */
export function warm(): Promise<void> {
  if (started) return started;
  return startWorker().then(
    ({ worker }) => {
      worker.terminate();
      markStarted();
    },
    // No Worker here (CSP, no module Workers): the glue and Wasm load on this thread, as a later view would decode.
    () => {
      started = startHere().then((here) => {
        decode = here;
        markStarted();
      });
      return started;
    },
  );
}

/**
 * Tells the loader's cost model on later pages that the decoder's files are in the HTTP cache now, and the Worker
 * (model.ts `decoderCookie`, which also says whether this browser decodes as the response streams).
 */
function markStarted(): void {
  markDecoder(import.meta.url);
  setSiteCookie(decoderCookie, (WebAssembly as { Suspending?: unknown }).Suspending ? 1 : 0, decoderCookieMaxAgeS);
}

/** How long the decoder cookie says the decoder is cached, s: a week, a usual lifetime of its files in the HTTP cache. */
const decoderCookieMaxAgeS = 604_800;

/** What the page allows (src/off-thread/inline.ts), probed once before the first BinaryAST fetch. */
let environment: ReturnType<typeof probeEnvironment> | undefined;

/**
 * One script the loader sent to BinaryAST: fetched with `Accept: application/javascript-binast, *\/*` while the
 * decoder starts; a BinaryAST answer is decoded in the Worker, a JavaScript one (no encoding stored yet) is run as
 * it is. Every failure resolves with the plain script's runner, its reason in the record.
 */
export async function prepareScript(job: BinastJob): Promise<Runner> {
  const run = await prepare(job);
  // Whichever way it runs, decoded or plain, it may run after the load event: `window.onload` set then still runs.
  return () => withLateOnload(run);
}

async function prepare({ script, url, record, nonce, fallback, finish, early }: BinastJob): Promise<Runner> {
  environment ??= probeEnvironment(nonce);
  if (environment) {
    // The loader's early request, if any, is of no use here.
    if (early) void early.then((response) => response.body?.cancel()).catch(() => {});
    return fallback(environment);
  }
  // A repeat view finds the plain script in the HTTP cache: running it costs neither a download nor a decode, and
  // asking for BinaryAST would download the script again (the cached copy answered another Accept). `data-always`
  // skips this as it skips the cost model; a request the loader already made had no plain copy to find (model.ts
  // `plainCookie`).
  if (!early && record.reason === 'faster' && (await inHttpCache(url))) return fallback('cached', 'plain');
  // The decoder starts while the script downloads, unless an earlier view kept this script's decoded source (then
  // it starts only if that copy turns out stale).
  const startDecoder = () => {
    const ready = init();
    ready.catch(() => {});
    return ready;
  };
  const stored = storedVersions(url);
  void stored.then((versions) => {
    if (versions.length === 0) startDecoder();
  });
  // For a request the loader already made, its time is counted from here.
  const startMs = performance.now();
  let response: Response;
  let binast = false;
  let source = new Blob();
  let keep: Decoded['keep'] = () => {};
  try {
    // The request a plain script's element makes: its credentials (fetch's default, same-origin, is a plain
    // script's for same-origin URLs and for crossorigin="anonymous"; "use-credentials" sends cookies anywhere) and
    // its `referrerpolicy` (without it, a script the site keeps from sending a Referer sent one). See the README for
    // cross-origin scripts without `crossorigin`.
    response = await (early ||
      fetch(url, {
        headers: { accept: binastAccept },
        credentials: script.crossOrigin === 'use-credentials' ? 'include' : 'same-origin',
        referrerPolicy: script.referrerPolicy as ReferrerPolicy,
      }));
    binast = isBinastContentType(response.headers.get('content-type'));
    if (!binast) source = await response.blob();
  } catch {
    return fallback('fetch');
  }
  if (!response.ok) return fallback(`http-${response.status}`);
  const transferUrl = response.url;
  // For BinaryAST: to the response headers; its body streams into the decoder.
  record.fetchMs = measure('binast:fetch', startMs);
  if (binast) {
    const decodeStartMs = performance.now();
    // Cache Storage is opened again only when it holds this very version.
    const cached = await readDecoded(url, response, await stored);
    if (cached === undefined) {
      try {
        await startDecoder();
      } catch {
        return fallback('decoder');
      }
      const etag = response.headers.get('etag');
      try {
        ({ source, keep } = await decodeToJavaScript(response, etag ? { url, etag } : undefined));
      } catch {
        return fallback('decode');
      }
    } else {
      source = cached;
      record.decodedBefore = true;
    }
    record.decodeMs = measure('binast:decode', decodeStartMs);
    // Decoded (or stored) source is UTF-8 text, whatever the page's encoding (script-charset.ts).
    source = new Blob([source], { type: 'text/javascript;charset=utf-8' });
  }
  return async () => {
    const runStartMs = performance.now();
    let ran = runsFromBlob(source.size, record.module) ? await runBlob(script, url, nonce, source) : undefined;
    record.executedFrom = ran === undefined ? 'inline' : 'blob';
    ran ??= await runInline(script, url, record.module, nonce, await scriptText(source, script));
    keep(ran);
    if (!ran) return fallback('syntax')();
    finish(binast ? 'binast' : 'js', true, runStartMs);
    // `finish` read the bytes of the script's own URL; the Worker's BinaryAST preload has its Resource Timing entry
    // under the URL it preloaded (`?__binast`), which the response carries.
    if (early)
      record.transferBytes = (
        performance.getEntriesByName(transferUrl).pop() as PerformanceResourceTiming | undefined
      )?.transferSize;
    return true;
  };
}

/**
 * Whether the browser's HTTP cache holds a response for a plain request of `url` (a script element's `Accept: *\/*`),
 * fresh or not; `only-if-cached` answers from the cache or fails, never from the network. Same-origin only, as
 * `only-if-cached` requires: cross-origin scripts count as not cached.
 */
async function inHttpCache(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
    void response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * A BinaryAST response -> a Blob of JavaScript source, and with `keepAs` how to store it for later views; rejects
 * with the decoder's error on corrupt input.
 */
export function decodeToJavaScript(response: Response, keepAs?: KeepAs): Promise<Decoded> {
  if (!decode) return Promise.reject(new Error('binast decoder not initialised'));
  return decode(response, keepAs);
}

async function startHere(): Promise<Decode> {
  const decoder = (await import(/* @vite-ignore */ './binast-wasm.js')) as typeof import('./binast-wasm.js');
  await decoder.default({});
  // Each decode runs in a fresh instance (wasm/binast/js/decode.js): a trap cannot reach the next script.
  return async (response, keepAs) => {
    const source = new Blob([await decoder.decodeStream(response.body ?? new Uint8Array(0))]);
    return { source, keep: (ran) => ran && keepAs && void keepDecoded(keepAs.url, keepAs.etag, source) };
  };
}

/** The decoder's Worker, once it compiled its module, and the function that decodes through it. */
function startWorker(): Promise<{ worker: Worker; call: Decode }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./binast-worker.js', import.meta.url), { type: 'module' });
    const pending = new Map<number, { resolve(decoded: Decoded): void; reject(error: Error): void }>();
    let nextId = 1;
    const call: Decode = (response, keepAs) =>
      new Promise((resolveCall, rejectCall) => {
        const id = nextId++;
        const body = response.body;
        if (!body) return rejectCall(new Error('response has no body'));
        pending.set(id, { resolve: resolveCall, reject: rejectCall });
        try {
          // Transferring the stream hands its chunks to the Worker as they arrive.
          worker.postMessage({ id, body, keepAs }, [body]);
        } catch {
          // Browsers that cannot transfer streams: the whole body, read here, moved (not copied) to the Worker.
          new Response(body)
            .arrayBuffer()
            .then((buffer) => worker.postMessage({ id, bytes: new Uint8Array(buffer), keepAs }, [buffer]), rejectCall);
        }
      });
    worker.onerror = (event) => {
      event.preventDefault();
      reject(new Error(event.message || 'decoder worker failed'));
      for (const waiting of pending.values()) waiting.reject(new Error('decoder worker failed'));
      pending.clear();
    };
    worker.onmessage = ({ data }: MessageEvent<Reply>) => {
      if (data.id === 0) return data.error ? reject(new Error(data.error)) : resolve({ worker, call });
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (data.error !== undefined) waiting?.reject(new Error(data.error));
      // The Worker holds a copy to keep until told to store it.
      else
        waiting?.resolve({
          source: data.source ?? new Blob(),
          keep: (ran) => worker.postMessage({ keep: data.id, ran }),
        });
    };
  });
}
