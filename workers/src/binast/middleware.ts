import { binastQuery } from '@speedkit/binast-loader/model';
import { acceptsExplicitly } from '../shared/accept';
import { isNotModified, notModified, withoutConditionals } from '../shared/conditional';
import { ExpiringClaims } from '../shared/expiring-claims';
import type { Middleware } from '../shared/middleware';
import { forbidsTransform } from '../shared/no-transform';
import { readLimited } from '../shared/read-limited';
import { sha256Hex } from '../shared/sha256';
import { isSharedResponse } from '../shared/shared-cache';
import { addVary } from '../shared/vary';
import { encodeVerified, utf8Text } from './codec';
import { type BinastConfig, readConfig } from './config';
import { binastMediaType } from './media-type';
import { prebuiltEncoding } from './prebuilt';
import { formatHint, gzipBytes, hintKey } from './size-hint';
import { attemptKey, failureKey, variantKey } from './store';

const isJavaScriptPath = (path: string) => path.endsWith('.js') || path.endsWith('.mjs');
const isJavaScriptType = (type: string | null) => type === null || /javascript|ecmascript/i.test(type);

/**
 * The part of the URL that goes into the store's keys: host and path, not the query. Every encoding is checked against
 * the bytes it is served for (`sourceSha256`), so a query selecting another file cannot get this one's; one that does
 * not (a cache-buster, `?v=<build>`, `?_=<time>`) no longer makes another encode and R2 object for the same bytes.
 * With the query in the key, anyone could make the Worker encode and store a script again and again by varying it.
 */
const scriptLocation = (url: URL) => `${url.host}${url.pathname}`;

/** The encoding's R2 metadata field naming the SHA-256 (hex) of the JavaScript it was made from. */
const sourceShaField = 'sourceSha256';

/** Adds `Vary: Accept`: the same URL answers JavaScript or BinaryAST depending on `Accept`. */
function withVary(response: Response, note: string): Response {
  const out = new Response(response.body, response);
  addVary(out.headers, 'Accept');
  out.headers.set('x-speedkit-binast', note);
  return out;
}

/** `?__binast` at the end of a query (the form size-hint.ts preloads: model.ts `binastQuery`) asks for BinaryAST. */
const marker = new RegExp(`[?&]${binastQuery}$`);

/**
 * Serves a stored BinaryAST encoding of `.js` responses to clients that ask for it (by `Accept`, or by the
 * `binastQuery` parameter), and encodes in the background on a miss. Anything unexpected (no store, oversize,
 * syntax the parser rejects, an encoder error) serves the original script, logged: BinaryAST is an optimisation,
 * never a reason for a broken page.
 */
export const binastMiddleware: Middleware = async (request, env, ctx, next) => {
  const url = new URL(request.url);
  const isHead = request.method === 'HEAD';
  if ((request.method !== 'GET' && !isHead) || !isJavaScriptPath(url.pathname) || request.headers.has('range')) {
    return next(request);
  }
  // The origin and the store see the script's own URL.
  const marked = marker.test(url.search);
  if (marked) {
    url.search = url.search.replace(marker, '');
    request = new Request(url, request);
  }
  if (!marked && !acceptsExplicitly(request.headers.get('accept'), binastMediaType)) {
    const response = await next(request);
    const isScript = response.status === 200 && isJavaScriptType(response.headers.get('content-type'));
    // RFC 9110 §15.4.5: a 304 carries the Vary its 200 would have, or a cache revalidating its copy may take the
    // 304's headers for the copy's and drop `Vary: Accept` from it.
    return isScript || response.status === 304 ? withVary(response, 'not requested') : response;
  }
  const response = await next(originRequest(request));
  const served = isHead
    ? await negotiateHead(request, env, response)
    : await negotiate(request, env, ctx, response, next);
  return isNotModified(request, served) ? notModified(served, ['x-speedkit-binast']) : served;
};

/**
 * What the origin is asked for a client that wants BinaryAST. Without validators: its 304 would be about the
 * JavaScript, which may not be what is served. And with `Accept` naming only what the origin has, the JavaScript
 * (the client's other ranges, else `*\/*`): an origin that negotiates strictly answered 406 to a bare
 * `Accept: application/javascript-binast` (what the size hints' background ask sends), and nothing was ever encoded.
 */
function originRequest(request: Request): Request {
  const plain = withoutConditionals(request);
  const others = (plain.headers.get('accept') ?? '')
    .split(',')
    .map((range) => range.trim())
    .filter((range) => range !== '' && range.split(';')[0]?.trim().toLowerCase() !== binastMediaType);
  const headers = new Headers(plain.headers);
  headers.set('accept', others.length > 0 ? others.join(', ') : '*/*');
  return new Request(plain, { headers });
}

/**
 * Why a script answer for a client that asked for BinaryAST is served as JavaScript before its body is looked at, or
 * null when an encoding may be served: not a 200 script (`'untouched'`: no `Vary` either), a charset the encoder does
 * not read, no store, the origin's `no-transform`, a response meant for one visitor.
 */
function passReason(request: Request, env: Env, response: Response): string | null {
  if (response.status !== 200 || !isJavaScriptType(response.headers.get('content-type'))) return 'untouched';
  // The encoder reads UTF-8: a script declared in another charset would be stored with its text garbled.
  if (!declaresUtf8OrNothing(response.headers.get('content-type'))) return 'not UTF-8';
  if (!env.VARIANTS) return 'no store';
  // RFC 9111 §5.2.2.6: the origin forbids any transformation of its bytes, so no other representation is made.
  if (forbidsTransform(response)) return 'no-transform';
  // A script meant for one visitor (per-user settings, a signed-in page's data) is neither stored nor looked up.
  if (!isSharedResponse(request.headers, response.headers)) return 'private';
  return null;
}

/**
 * A HEAD from a client that asked for BinaryAST: the headers a GET would get when they are known without the body
 * (the origin's ETag names a stored encoding), else the JavaScript's with `Vary: Accept`. Nothing is encoded: a HEAD
 * has no body to encode.
 */
async function negotiateHead(request: Request, env: Env, response: Response): Promise<Response> {
  const reason = passReason(request, env, response);
  if (reason === 'untouched') return response;
  if (reason !== null) return withVary(response, reason);
  const etag = response.headers.get('etag');
  const store = env.VARIANTS;
  if (etag === null || !store) return withVary(response, 'miss');
  const url = new URL(request.url);
  try {
    const key = await variantKey(scriptLocation(url), etag, readConfig(env as unknown as Vars));
    const stored = await store.head(key);
    // One stored before encodings named their bytes is never served to a GET (`negotiate`): no HEAD says it is.
    if (!stored?.customMetadata?.[sourceShaField]) return withVary(response, 'miss');
    const headers = binastHeaders(response, stored.size, key);
    return new Response(null, { status: 200, headers });
  } catch (error) {
    // An R2 failure (an outage, a rate limit) threw out of the middleware: the HEAD got a 500 for a script that was
    // there. As for a GET (`negotiate`), the script's own headers.
    console.error(`binast: HEAD ${url.pathname} answered as JavaScript: ${String(error)}`);
    return withVary(response, 'error');
  }
}

type Vars = Record<string, unknown>;

/**
 * An encode that started this long ago and left its attempt marker (store.ts `attemptKey`) died with its isolate: a
 * Worker's `waitUntil` ends 30 s after the response at the latest.
 */
const abandonedAfterMs = 60_000;

/**
 * Keys this isolate is encoding now. Without it, every request for a new script that arrived before its encoding was
 * stored started another encode of the same bytes (a popular script after a deploy: dozens of parse + encode + check
 * runs, each up to seconds of CPU and tens of MB of heap for a large one). Other isolates see the encode's attempt
 * marker (`startEncoding`). An entry leaves when its encode settles, failed or not, so nothing waits on it; or, when
 * the runtime cut the encode's `waitUntil` off (its `finally` never runs), once it is as old as an abandoned marker:
 * a plain set kept such a script claimed, and served as JavaScript, for the isolate's life.
 */
const encodingNow = new ExpiringClaims(abandonedAfterMs);
/** Encodes of one body that may die with their isolate before it is marked as failed (one may be bad luck). */
const maxEncodeTries = 2;

/**
 * Starts `encode` in the background unless it is running already, here (`encodingNow`) or in another isolate (a fresh
 * attempt marker), and returns the response's note. An encode that died with its isolate, out of memory or CPU time,
 * runs in no `catch` and stores no failure marker: until 2026-11-28 every request for that script asked for it
 * again, and each one took down the isolate and every other request it was serving. Now its attempt marker outlives
 * it, and after `maxEncodeTries` such deaths the body is marked as failed.
 */
async function startEncoding(
  store: R2Bucket,
  ctx: ExecutionContext,
  { key, bodyKey }: { readonly key: string; readonly bodyKey: string },
  encode: () => Promise<void>,
): Promise<string> {
  // Claimed before any await: the requests arriving meanwhile get the JavaScript without encoding it again.
  const claimedAtMs = Date.now();
  if (!encodingNow.claim(key, claimedAtMs)) return 'miss; encoding elsewhere';
  let started = false;
  try {
    const attempt = await store.head(attemptKey(bodyKey));
    const tries = Number(attempt?.customMetadata?.tries ?? 0) || 0;
    if (attempt) {
      const startedMs = Number(attempt.customMetadata?.startedMs ?? 0) || 0;
      if (Date.now() - startedMs < abandonedAfterMs) return 'miss; encoding elsewhere';
      if (tries >= maxEncodeTries) {
        const reason = `${tries} encodes never finished: the isolate died in them (memory or CPU limit)`;
        console.warn(`binast: ${key} is served as JavaScript from now on: ${reason}`);
        ctx.waitUntil(store.put(failureKey(bodyKey), reason).then(() => store.delete(attemptKey(bodyKey))));
        return 'unsupported';
      }
    }
    const marker = { customMetadata: { startedMs: String(Date.now()), tries: String(tries + 1) } };
    started = true;
    // The marker goes first, so a death in the encode leaves it behind; written after the response, like the encode.
    const run = store.put(attemptKey(bodyKey), '', marker).then(async () => {
      try {
        await encode();
      } finally {
        await store.delete(attemptKey(bodyKey));
      }
    });
    ctx.waitUntil(run.finally(() => encodingNow.release(key, claimedAtMs)));
    return 'miss; encoding';
  } finally {
    if (!started) encodingNow.release(key, claimedAtMs);
  }
}

/** Chooses between the stored BinaryAST and the original script for a client that asked for BinaryAST. */
async function negotiate(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  response: Response,
  origin: (request: Request) => Promise<Response>,
): Promise<Response> {
  const reason = passReason(request, env, response);
  if (reason === 'untouched') return response;
  const store = env.VARIANTS;
  if (reason !== null || !store) return withVary(response, reason ?? 'no store');
  const url = new URL(request.url);
  const config = readConfig(env as unknown as Vars);
  const location = scriptLocation(url);
  let body: Uint8Array | null = null;
  try {
    const limit = largestServed(config);
    const declaredBytes = Number(response.headers.get('content-length') ?? 0);
    if (declaredBytes > limit) return withVary(response, 'too large');
    const etag = response.headers.get('etag');
    const etagKey = etag === null ? null : await variantKey(location, etag, config);
    const etagStored = etagKey === null ? null : await store.get(etagKey);
    // A marker for this ETag spares the read: a script over the limit (same size, same ETag), or one the encoder
    // rejected before 2026-11-28, when such markers went under the ETag too.
    if (etagKey !== null && !etagStored && (await store.head(failureKey(etagKey)))) {
      return withVary(response, 'unsupported');
    }
    // The body is read and hashed on every request, hits too: an encoding is served only for the bytes it was made
    // from. An ETag alone does not prove them: one that counts mtime and size repeats across builds that keep both
    // (reproducible builds date every file alike), and a template's ETag can stay while the script it renders differs
    // per visitor. Read up to the limit only (a chunked body has no Content-Length to check first): past it, the
    // script streams on as it is.
    body = await readLimited(response.clone(), limit);
    if (body === null) {
      await etagStored?.body.cancel();
      // Learnt on this miss (no Content-Length said so): the marker spares the next requests the read.
      if (etagKey !== null && !etagStored) ctx.waitUntil(store.put(failureKey(etagKey), `over ${limit} bytes`));
      return withVary(response, 'too large');
    }
    await response.body?.cancel();
    const source = body;
    const original = new Response(source, response);
    const sourceSha256 = await sha256Hex(body);
    const bodyKey = await variantKey(location, sourceSha256, config);
    let key = etagKey ?? bodyKey;
    let stored = etagStored;
    const named = stored?.customMetadata?.[sourceShaField];
    if (etagKey === null || (named !== undefined && named !== sourceSha256)) {
      // No ETag, or the ETag's encoding was made from other bytes: the body's own hash is the identity, so the two
      // versions never take each other's place.
      await stored?.body.cancel();
      key = bodyKey;
      stored = await store.get(key);
    } else if (stored && named === undefined) {
      // Stored before encodings named their bytes: unproven, so never served; encoded again in its place.
      await stored.body.cancel();
      stored = null;
    }
    // The encoder's verdict is about bytes, so its marker is keyed by them: a body cut short on a connection that
    // closed cleanly, or another version under the same ETag, fails for itself, not for the complete script.
    if (!stored && (await store.head(failureKey(bodyKey)))) return withVary(original, 'unsupported');
    if (stored) {
      // Encodings stored before size hints existed get theirs now, after the response (the JavaScript is unused).
      ctx.waitUntil(storeHintIfMissing(store, hintKey(url, config), key, original));
      return binastResponse(stored, original, key);
    }
    const note = await startEncoding(store, ctx, { key, bodyKey }, () =>
      storeEncoding(store, { key, bodyKey }, source, sourceSha256, url, config, origin),
    );
    return withVary(original, note);
  } catch (error) {
    console.error(`binast: serving ${url.pathname} as JavaScript: ${String(error)}`);
    return withVary(body === null ? response : new Response(body, response), 'error');
  }
}

/**
 * True unless the Content-Type names a charset other than UTF-8. A script without one is checked as it is decoded
 * (`fatal`): bytes that are not UTF-8 (a Latin-1 script on a windows-1252 page) are never encoded.
 */
function declaresUtf8OrNothing(contentType: string | null): boolean {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType ?? '')?.[1]?.toLowerCase();
  return charset === undefined || charset === 'utf-8' || charset === 'utf8';
}

/** The largest script that may become BinaryAST: one this Worker encodes, or one a trusted prebuilt file covers. */
const largestServed = (config: BinastConfig) =>
  config.prebuilt === 'trust' ? Math.max(config.maxSourceBytes, config.maxPrebuiltBytes) : config.maxSourceBytes;

/**
 * Headers of the origin's answer that describe its JavaScript bytes, not the resource: never copied onto the
 * encoding. `Last-Modified` goes too: a date saved with the JavaScript must not revalidate the BinaryAST answer.
 */
const javaScriptOnlyHeaders = [
  'content-type',
  'content-length',
  'content-encoding',
  'content-range',
  'content-disposition',
  'content-md5',
  'content-digest',
  'repr-digest',
  'digest',
  'accept-ranges',
  'etag',
  'last-modified',
  'sourcemap',
  'x-sourcemap',
];

/**
 * The encoding's headers: the origin's own (caching, CORS, `Cross-Origin-Resource-Policy`, `nosniff`…, which a page
 * fetching the script from another origin or under cross-origin isolation needs as much as the JavaScript did), minus
 * those of the JavaScript bytes, with its own type, length, ETag and `Vary: Accept`.
 */
function binastHeaders(original: Response, bytes: number, key: string): Headers {
  const headers = new Headers(original.headers);
  for (const name of javaScriptOnlyHeaders) headers.delete(name);
  headers.set('content-type', binastMediaType);
  headers.set('content-length', String(bytes));
  headers.set('etag', `"${key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 17)}-binast"`);
  addVary(headers, 'Accept');
  headers.set('x-speedkit-binast', 'hit');
  return headers;
}

function binastResponse(stored: R2ObjectBody, original: Response, key: string): Response {
  return new Response(stored.body, { status: 200, headers: binastHeaders(original, stored.size, key) });
}

/** The hint of an encoding served before hints existed reads the JavaScript again: at most this much of it. */
const maxHintedBytes = 16 * 1024 * 1024;

async function storeHintIfMissing(store: R2Bucket, hint: string, key: string, original: Response): Promise<void> {
  try {
    if (await store.head(hint)) {
      await original.body?.cancel();
      return;
    }
    const encoded = await store.get(key);
    const javaScript = await readLimited(original, maxHintedBytes);
    if (!encoded || javaScript === null) return;
    const jsBytes = await gzipBytes(javaScript);
    await store.put(hint, formatHint(jsBytes, await gzipBytes(new Uint8Array(await encoded.arrayBuffer()))));
  } catch (error) {
    console.warn(`binast: no size hint for ${hint}: ${String(error)}`);
  }
}

/**
 * Stores the encoding of `source` under `key`, with its size hint: the prebuilt file beside the script when there is
 * a usable one (prebuilt.ts), else one made and checked here; a failure marker when neither can be had: under `key`
 * for a script over the size limit (an ETag's other bodies of the same size are too), under `bodyKey` (the body's
 * hash) when the encoder rejected these bytes.
 */
async function storeEncoding(
  store: R2Bucket,
  { key, bodyKey }: { readonly key: string; readonly bodyKey: string },
  source: Uint8Array,
  sourceSha256: string,
  url: URL,
  config: BinastConfig,
  origin: (request: Request) => Promise<Response>,
): Promise<void> {
  const path = url.pathname;
  const startMs = performance.now();
  const prebuilt = await prebuiltEncoding(url, source, config, origin);
  if (!prebuilt.ok && config.prebuilt !== 'off') console.log(`binast: ${path} encoded here: ${prebuilt.reason}`);
  let bytes: Uint8Array;
  if (prebuilt.ok) {
    bytes = prebuilt.bytes;
  } else if (source.byteLength > config.maxSourceBytes && prebuilt.transient) {
    // Only a prebuilt file can serve this script (`trust`), and it could not be had this time: no marker, so a later
    // miss asks again. The marker below kept it JavaScript under this ETag for good after one slow or failed answer
    // (since 2026-11-28 an answer over the 10 s deadline too, where the encode used to wait and store nothing).
    console.warn(`binast: ${path} is over BINAST_MAX_SOURCE_BYTES and its prebuilt file is not there now`);
    return;
  } else if (source.byteLength > config.maxSourceBytes) {
    console.warn(
      `binast: ${path} is ${source.byteLength} bytes, over BINAST_MAX_SOURCE_BYTES=${config.maxSourceBytes}`,
    );
    await store.put(failureKey(key), `over ${config.maxSourceBytes} bytes`);
    return;
  } else {
    try {
      bytes = encodeVerified(utf8Text(source), path, config);
    } catch (error) {
      console.warn(`binast: ${path} not encoded, serving JavaScript: ${String(error)}`);
      await store.put(failureKey(bodyKey), String(error).slice(0, 500));
      return;
    }
  }
  await store.put(key, bytes, {
    httpMetadata: { contentType: binastMediaType },
    customMetadata: {
      sourceBytes: String(source.byteLength),
      encodeMs: (performance.now() - startMs).toFixed(1),
      origin: prebuilt.ok ? 'prebuilt' : 'encoded',
      [sourceShaField]: sourceSha256,
    },
  });
  // The loader's cost model reads both wire sizes from the page (size-hint.ts).
  await store.put(hintKey(url, config), formatHint(await gzipBytes(source), await gzipBytes(bytes)));
}
