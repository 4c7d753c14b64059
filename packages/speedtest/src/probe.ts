import { nextTask } from './next-task';
import { type ClockTimes, parseServerTimingMs, type RequestTiming, requestTiming } from './timing';

/** What every request needs: where the endpoints are, and the signal that cancels it. */
export interface ProbeContext {
  serverUrl: string;
  signal: AbortSignal;
}

export interface ProbeResult {
  timing: RequestTiming;
  serverMs: number | null;
  /** Bytes the client read (download) or the server reported (upload); null when unknown. */
  receivedBytes: number | null;
  startMs: number;
  /** Resource-timing readings when usable, else the engine's own: for spreading upload bytes over time. */
  requestStartMs: number;
  responseStartMs: number;
  /** True when the signal cut the body short (a download the phase no longer needed): `receivedBytes` arrived. */
  cut?: boolean;
  /** Uploads: the server's `[offsetMs, bytes]` read times from its handler's start, when it sent them. */
  receiveTimeline?: [number, number][] | null;
  /** Uploads: when the server answered, on the timeline's clock (ms); null when it did not say. */
  serverEndMs?: number | null;
}

let sequence = 0;

/**
 * An endpoint of the server at `serverUrl` ('' = this page's origin), resolved against `base`. Outside a page (Node, a
 * Worker without `location`) '' or a path has nothing to resolve against: that is said, not a bare "Invalid URL".
 */
export function serverEndpoint(serverUrl: string, path: string, base = globalThis.location?.href): URL {
  if (base === undefined && !/^https?:\/\//i.test(serverUrl)) {
    throw new TypeError(
      `serverUrl ${serverUrl ? `"${serverUrl}"` : "''"} names this page's server, and there is no page here (no location): pass an absolute http(s) URL`,
    );
  }
  return new URL(`${serverUrl || globalThis.location?.origin || ''}${path}`, base);
}

/** An absolute, never-repeated URL: resource-timing entries are looked up by name, and parallel requests must not share one. */
function endpointUrl(context: ProbeContext, path: string, params: Record<string, string | number>): string {
  const url = serverEndpoint(context.serverUrl, path);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, String(value));
  url.searchParams.set('r', `${Date.now().toString(36)}${(sequence++).toString(36)}`);
  return url.href;
}

function entryFor(url: string): PerformanceResourceTiming | undefined {
  const entries = performance.getEntriesByName(url, 'resource');
  return entries[entries.length - 1] as PerformanceResourceTiming | undefined;
}

async function finish(
  url: string,
  response: Response,
  clock: ClockTimes,
  receivedBytes: number | null,
): Promise<ProbeResult> {
  const serverMs = parseServerTimingMs(response.headers.get('server-timing'));
  const entry = entryFor(url);
  const timing = requestTiming(entry, clock, serverMs);
  const fromEntry = timing.source === 'resource-timing' && entry;
  return {
    timing,
    serverMs,
    receivedBytes,
    startMs: clock.startMs,
    requestStartMs: fromEntry ? entry.requestStart : clock.startMs,
    responseStartMs: fromEntry ? entry.responseStart : clock.headersMs,
  };
}

function ensureOk(response: Response, url: string): void {
  if (!response.ok) throw new Error(`${response.status} from ${url}`);
}

/** A request that got no answer within its deadline: the server stopped answering (or the path went dark). */
export class NoAnswerError extends Error {
  override name = 'NoAnswerError';
}

/** The endpoint a URL names, without the query (the cache-busting `r` and the sizes say nothing to a reader). */
const endpointOf = (url: string) => {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
};

/**
 * `fetch`, with a network failure turned into an error that names the endpoint: the browser's own ("Failed to
 * fetch", Node's "fetch failed") says neither which server nor why, and a server that is down, a wrong `serverUrl`
 * and a cross-origin server without CORS headers all end there. Aborts pass through unchanged.
 */
async function send(url: string, init: RequestInit & { signal: AbortSignal }): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (isAbort(error, init.signal)) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `could not reach ${endpointOf(url)} (${reason}): is the server up, and does it allow this page's origin (CORS)?`,
      { cause: error },
    );
  }
}

/**
 * The signal of a request that must be answered within `timeoutMs` (ms; Infinity = no deadline): aborted by the
 * phase's signal or by the deadline, whichever comes first. `release` clears the timer and the listener.
 */
export function withDeadline(signal: AbortSignal, timeoutMs: number) {
  const controller = new AbortController();
  let expired = false;
  const onAbort = () => controller.abort(signal.reason);
  const timer = Number.isFinite(timeoutMs)
    ? setTimeout(() => {
        expired = true;
        controller.abort();
      }, timeoutMs)
    : null;
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort);
  return {
    signal: controller.signal,
    /** True once the deadline (not the phase) cut the request. */
    expired: () => expired && !signal.aborted,
    release: () => {
      if (timer !== null) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    },
  };
}

/** The sizes of a PerformanceResourceTiming entry that show a content coding (bytes). */
export interface BodySizes {
  encodedBodySize: number;
  decodedBodySize: number;
}

/** Content codings browsers and fetch implementations decode, alone or in a list (`gzip, br`). */
const decodedCodings = /(^|,)\s*(x-gzip|gzip|deflate|br|zstd)\s*(,|$)/i;

/**
 * Pure: how a download shows it was compressed on the way, or null. The test data are zeros, which gzip or brotli
 * shrink a thousandfold: behind a proxy or a CDN rule that compresses them, the engine would count the decoded bytes
 * of a transfer that hardly used the link and read a rate far above it. The header when the page may read it (same
 * origin, or exposed by the server), else the resource-timing sizes (0 when the server withholds Timing-Allow-Origin:
 * nothing to compare then).
 */
export function downloadCompression(contentEncoding: string | null, sizes?: BodySizes | null): string | null {
  const coding = contentEncoding?.trim();
  // Only codings a browser decodes: a body under an unknown one (a misconfigured `none`) reaches the page as sent.
  if (coding && decodedCodings.test(coding)) return `Content-Encoding: ${coding}`;
  if (sizes && sizes.encodedBodySize > 0 && sizes.encodedBodySize < sizes.decodedBodySize) {
    return `${sizes.encodedBodySize} bytes on the wire for ${sizes.decodedBodySize} delivered`;
  }
  return null;
}

/** A download that arrived compressed (`downloadCompression`): its direction fails with reason `compressed`. */
export class CompressedDownloadError extends Error {
  override name = 'CompressedDownloadError';
}

/** The error a compressed download fails its request with: what happened, why it matters, what to change. */
function compressedDownloadError(url: string, how: string): Error {
  return new CompressedDownloadError(
    `the download from ${endpointOf(url)} arrived compressed (${how}): something between this page and the server ` +
      '(a proxy, or a CDN rule compressing every type) compressed the test data, so far fewer bytes crossed the ' +
      'network than were counted and the rate would read too high; turn compression off for /__down (the server ' +
      'marks its answers Cache-Control: no-transform)',
  );
}

/**
 * One latency probe: `GET /__down?bytes=0`. With a `timeoutMs` (idle pings), no answer within it rejects with a
 * `NoAnswerError`; pings under load have none (the phase's end cuts them, and bufferbloat may hold one for seconds).
 * Sent without credentials, so that Chromium keeps them on a connection of their own: it pools connections by
 * whether requests carry credentials, and over HTTP/2 or HTTP/3 (every deployed Worker) all requests of one pool
 * share one connection, where a ping waits behind the transfer's unsent bytes in the server's socket. That is not the
 * link's queue: in the lab behind an HTTP/2 front, loaded latency read 333 ms where the link's queue gave 31 ms
 * (25/5 Mbit/s, 15 ms, `bench/results/accuracy/h2-front-*`, 2026-11-28). Idle pings too, so the pings' connection
 * is open and warm before the first ping under load. Only when the page is on the server's origin do transfers carry
 * credentials (their default, `same-origin`); a page elsewhere sends neither, and its pings share the transfers' pool.
 */
export async function ping(
  context: ProbeContext,
  during: string,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<ProbeResult> {
  const url = endpointUrl(context, '/__down', { bytes: 0, during });
  const deadline = withDeadline(context.signal, timeoutMs);
  try {
    const startMs = performance.now();
    const response = await send(url, { signal: deadline.signal, cache: 'no-store', credentials: 'omit' });
    const headersMs = performance.now();
    ensureOk(response, url);
    await response.arrayBuffer();
    return await finish(url, response, { startMs, headersMs, endMs: performance.now() }, 0);
  } catch (error) {
    if (!deadline.expired()) throw error;
    throw new NoAnswerError(`no answer from ${endpointOf(url)} within ${timeoutMs / 1000} s`, { cause: error });
  } finally {
    deadline.release();
  }
}

/**
 * One download of `bytes`, reporting every body chunk as it arrives (`onChunk(fromMs, toMs, bytes)`) so the
 * goodput meter sees bytes in real time. A body cut short by the signal still gives a result (`cut`, with the bytes
 * that arrived): the bandwidth phase ends its downloads that way. An abort before the response began rejects.
 */
export async function download(
  context: ProbeContext,
  bytes: number,
  onChunk: (fromMs: number, toMs: number, chunkBytes: number) => void,
): Promise<ProbeResult> {
  const url = endpointUrl(context, '/__down', { bytes });
  const startMs = performance.now();
  const response = await send(url, { signal: context.signal, cache: 'no-store' });
  const headersMs = performance.now();
  ensureOk(response, url);
  // Read before the body, when the page may see the header: no bytes of a compressed transfer get counted.
  const declared = downloadCompression(response.headers.get('content-encoding'));
  if (declared) {
    await response.body?.cancel().catch(() => {});
    throw compressedDownloadError(url, declared);
  }
  let received = 0;
  let lastMs = headersMs;
  let cut = false;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      const nowMs = performance.now();
      received += chunk.value.byteLength;
      onChunk(lastMs, nowMs, chunk.value.byteLength);
      lastMs = nowMs;
    }
  } catch (error) {
    if (!isAbort(error, context.signal)) throw error;
    cut = true;
  }
  const result = await finish(url, response, { startMs, headersMs, endMs: performance.now() }, received);
  // A cross-origin page without the header exposed learns of a coding only from the finished entry's sizes.
  const measured = downloadCompression(null, entryFor(url));
  if (measured) throw compressedDownloadError(url, measured);
  return cut ? { ...result, cut } : result;
}

/**
 * One upload of the first `bytes` of `payload`; the server's receipt says how many arrived. The body is a Blob
 * slice: Chromium streams an ArrayBuffer or string body from the page's main thread, which then runs no timers (no
 * loaded pings, no other stream) until the upload ends; a Blob is read by the network stack instead, and slicing it
 * copies nothing.
 */
export async function upload(context: ProbeContext, bytes: number, payload: Blob): Promise<ProbeResult> {
  const url = endpointUrl(context, '/__up', { bytes });
  const startMs = performance.now();
  const response = await send(url, {
    method: 'POST',
    body: payload.slice(0, bytes),
    signal: context.signal,
    cache: 'no-store',
  });
  const headersMs = performance.now();
  ensureOk(response, url);
  const receipt = (await response.json().catch((error: unknown) => {
    // An abort must not turn into a sample without a receipt; any other unreadable body is just an unknown count.
    if (isAbort(error, context.signal)) throw error;
    return null;
  })) as { receivedBytes?: unknown; receiveDurationMs?: unknown; receiveTimeline?: unknown } | null;
  const receivedBytes = typeof receipt?.receivedBytes === 'number' ? receipt.receivedBytes : null;
  const result = await finish(url, response, { startMs, headersMs, endMs: performance.now() }, receivedBytes);
  // Checked where it is used (upload-spans.ts): a timeline that does not add up is ignored there.
  const receiveTimeline = Array.isArray(receipt?.receiveTimeline)
    ? (receipt.receiveTimeline as [number, number][])
    : null;
  const serverEndMs = typeof receipt?.receiveDurationMs === 'number' ? receipt.receiveDurationMs : null;
  return { ...result, receiveTimeline, serverEndMs };
}

/** Resolves after `ms`, or at once when `signal` aborts (callers check the signal). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}

export const isAbort = (error: unknown, signal: AbortSignal): boolean =>
  signal.aborted || (error instanceof DOMException && error.name === 'AbortError');

/** Distinct random bytes in the upload payload (bytes): far beyond any compressor's window (deflate 32 KiB). */
export const randomBlockBytes = 1 << 20;

/**
 * Random bytes (so no compressing proxy flatters the upload) as one Blob that every upload slices: one 1 MiB random
 * block, repeated. Filling the whole 25 MB with getRandomValues took one 80–280 ms main-thread task at the start of
 * every test (Lighthouse flagged it). The block becomes a Blob once and the payload is made of that Blob repeated:
 * Blob parts that are Blobs are referenced, while typed-array parts are copied, which for 25 parts of the block was
 * still a 300–800 ms task under 4× CPU throttling (bench/page). The rest is spread over a few tasks (`nextTask`).
 * Filled in 64 KiB calls, the getRandomValues limit.
 */
export async function randomBlob(bytes: number): Promise<Blob> {
  const block = new Uint8Array(Math.min(bytes, randomBlockBytes));
  for (let offset = 0; offset < block.length; offset += 65_536) {
    // One getRandomValues call per task: 256 KiB per task still made 40 ms tasks at 4× on a loaded machine.
    if (offset > 0) await nextTask();
    crypto.getRandomValues(block.subarray(offset, Math.min(block.length, offset + 65_536)));
  }
  const blockBlob = new Blob([block]);
  await nextTask();
  const parts: Blob[] = [];
  for (let remaining = bytes; remaining > 0; remaining -= block.length) {
    parts.push(remaining >= block.length ? blockBlob : blockBlob.slice(0, remaining));
  }
  return new Blob(parts, { type: 'application/octet-stream' });
}
