import { binastQuery } from '@speedkit/binast-loader/model';
import { acceptsExplicitly } from '../shared/accept';
import { isNotModified, notModified, withoutConditionals } from '../shared/conditional';
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
import { failureKey, variantKey } from './store';

const isJavaScriptPath = (path: string) => path.endsWith('.js') || path.endsWith('.mjs');
const isJavaScriptType = (type: string | null) => type === null || /javascript|ecmascript/i.test(type);

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
    return isScript ? withVary(response, 'not requested') : response;
  }
  // The origin is asked without validators: its 304 would be about the JavaScript, which may not be what is served.
  const response = await next(withoutConditionals(request));
  const served = isHead
    ? await negotiateHead(request, env, response)
    : await negotiate(request, env, ctx, response, next);
  return isNotModified(request, served) ? notModified(served, ['x-speedkit-binast']) : served;
};

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
  const key = await variantKey(`${url.host}${url.pathname}${url.search}`, etag, readConfig(env as unknown as Vars));
  const stored = await store.head(key);
  if (!stored) return withVary(response, 'miss');
  const headers = binastHeaders(response, stored.size, key);
  return new Response(null, { status: 200, headers });
}

type Vars = Record<string, unknown>;

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
  let body: Uint8Array | null = null;
  try {
    const limit = largestServed(config);
    const declaredBytes = Number(response.headers.get('content-length') ?? 0);
    if (declaredBytes > limit) return withVary(response, 'too large');
    const etag = response.headers.get('etag');
    // Without an ETag the body itself is the identity: read it once and keep serving those bytes. Read up to the
    // limit only (a chunked body has no Content-Length to check first): past it, the script streams on as it is.
    if (etag === null) {
      body = await readLimited(response.clone(), limit);
      if (body === null) return withVary(response, 'too large');
      await response.body?.cancel();
    }
    const original = body === null ? response : new Response(body, response);
    const key = await variantKey(
      `${url.host}${url.pathname}${url.search}`,
      etag ?? (await sha256Hex(body ?? new Uint8Array())),
      config,
    );
    const stored = await store.get(key);
    if (stored) {
      // Encodings stored before size hints existed get theirs now, after the response (the JavaScript is unused).
      ctx.waitUntil(storeHintIfMissing(store, hintKey(url, config), key, original));
      return binastResponse(stored, original, key);
    }
    if (await store.head(failureKey(key))) return withVary(original, 'unsupported');
    const source = body ?? (await readLimited(original.clone(), limit));
    if (source === null) {
      // Learnt on this miss (no Content-Length said so): the marker spares the next requests the read.
      ctx.waitUntil(store.put(failureKey(key), `over ${limit} bytes`));
      return withVary(original, 'too large');
    }
    ctx.waitUntil(storeEncoding(store, key, source, url, config, origin));
    return withVary(original, 'miss; encoding');
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
 * a usable one (prebuilt.ts), else one made and checked here; a failure marker when neither can be had.
 */
async function storeEncoding(
  store: R2Bucket,
  key: string,
  source: Uint8Array,
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
      await store.put(failureKey(key), String(error).slice(0, 500));
      return;
    }
  }
  await store.put(key, bytes, {
    httpMetadata: { contentType: binastMediaType },
    customMetadata: {
      sourceBytes: String(source.byteLength),
      encodeMs: (performance.now() - startMs).toFixed(1),
      origin: prebuilt.ok ? 'prebuilt' : 'encoded',
    },
  });
  // The loader's cost model reads both wire sizes from the page (size-hint.ts).
  await store.put(hintKey(url, config), formatHint(await gzipBytes(source), await gzipBytes(bytes)));
}
