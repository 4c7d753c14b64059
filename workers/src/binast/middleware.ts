import { binastQuery } from '@speedkit/binast-loader/model';
import { acceptsExplicitly } from '../shared/accept';
import { isNotModified, notModified, withoutConditionals } from '../shared/conditional';
import type { Middleware } from '../shared/middleware';
import { sha256Hex } from '../shared/sha256';
import { isSharedResponse } from '../shared/shared-cache';
import { addVary } from '../shared/vary';
import { encodeVerified, utf8Text } from './codec';
import { type BinastConfig, readConfig } from './config';
import { prebuiltEncoding } from './prebuilt';
import { formatHint, gzipBytes, hintKey } from './size-hint';
import { failureKey, variantKey } from './store';

/**
 * The media type of BinaryAST responses, and what a client lists in `Accept` to ask for one. A wildcard does not
 * count: a client without a decoder sends `*\/*` too, and BinaryAST is useless to it.
 */
export const binastMediaType = 'application/javascript-binast';

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
  if (request.method !== 'GET' || !isJavaScriptPath(url.pathname) || request.headers.has('range')) {
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
  const served = await negotiate(request, env, ctx, await next(withoutConditionals(request)), next);
  return isNotModified(request, served) ? notModified(served, ['x-speedkit-binast']) : served;
};

/** Chooses between the stored BinaryAST and the original script for a client that asked for BinaryAST. */
async function negotiate(
  request: Request,
  env: Env,
  ctx: ExecutionContext,
  response: Response,
  origin: (request: Request) => Promise<Response>,
): Promise<Response> {
  if (response.status !== 200 || !isJavaScriptType(response.headers.get('content-type'))) return response;
  const url = new URL(request.url);
  // The encoder reads UTF-8: a script declared in another charset would be stored with its text garbled.
  if (!declaresUtf8OrNothing(response.headers.get('content-type'))) return withVary(response, 'not UTF-8');
  const store = env.VARIANTS;
  if (!store) return withVary(response, 'no store');
  // A script meant for one visitor (per-user settings, a signed-in page's data) is neither stored nor looked up.
  if (!isSharedResponse(request.headers, response.headers)) return withVary(response, 'private');
  const config = readConfig(env as unknown as Record<string, unknown>);
  let body: Uint8Array | null = null;
  try {
    const declaredBytes = Number(response.headers.get('content-length') ?? 0);
    if (declaredBytes > largestServed(config)) return withVary(response, 'too large');
    const etag = response.headers.get('etag');
    // Without an ETag the body itself is the identity: read it once and keep serving those bytes.
    body = etag === null ? new Uint8Array(await response.arrayBuffer()) : null;
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
    const source = body ?? new Uint8Array(await original.clone().arrayBuffer());
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

function binastResponse(stored: R2ObjectBody, original: Response, key: string): Response {
  const headers = new Headers({
    'content-type': binastMediaType,
    'content-length': String(stored.size),
    vary: 'Accept',
    etag: `"${key.slice(key.lastIndexOf('/') + 1, key.lastIndexOf('/') + 17)}-binast"`,
    'x-speedkit-binast': 'hit',
  });
  const cacheControl = original.headers.get('cache-control');
  if (cacheControl) headers.set('cache-control', cacheControl);
  return new Response(stored.body, { status: 200, headers });
}

async function storeHintIfMissing(store: R2Bucket, hint: string, key: string, original: Response): Promise<void> {
  try {
    if (await store.head(hint)) {
      await original.body?.cancel();
      return;
    }
    const encoded = await store.get(key);
    if (!encoded) return;
    const jsBytes = await gzipBytes(new Uint8Array(await original.arrayBuffer()));
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
