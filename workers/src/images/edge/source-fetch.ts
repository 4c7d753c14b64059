import { concatBytes } from '../../shared/image-header/bytes';
import type { ImagesConfig } from '../core/config';

/** Where a `/cdn-cgi/image/` source points, after the allow-list check. */
export interface SourceLocation {
  readonly url: URL;
  /** Served by the configured origin (or the static assets), so fetched through the middleware's `next`. */
  readonly ownOrigin: boolean;
  /**
   * The URL a client knows the source by: the site's own (the request's origin) for an own source, since
   * `IMAGES_ORIGIN` may be an address the site keeps behind the Worker; `url` itself for an allowed other origin.
   * Redirects (`onerror=redirect`) and error details name this one.
   */
  readonly publicUrl: URL;
}

/** A refusal to fetch, as the 4xx/502 JSON answer it becomes. */
export interface SourceError {
  readonly status: number;
  readonly error: string;
  readonly detail: Readonly<Record<string, unknown>>;
}

export type Located =
  | { readonly ok: true; readonly source: SourceLocation }
  | { readonly ok: false; readonly problem: SourceError };

const refuse = (status: number, error: string, detail: Record<string, unknown>): Located => ({
  ok: false,
  problem: { status, error, detail },
});

/**
 * Resolves the `<source>` part of `/cdn-cgi/image/<options>/<source>`. Relative paths resolve against the configured
 * origin (or the request's own); absolute URLs must be http(s) on an allowed origin and carry no credentials. Paths
 * that a URL parser would turn into another host (`//evil`, `/\evil`) and loops back into `/cdn-cgi/image/` are refused.
 */
export function locateSource(raw: string, requestUrl: URL, config: ImagesConfig): Located {
  if (raw === '') return refuse(400, 'the source image is missing', { expected: '/cdn-cgi/image/<options>/<source>' });
  const base = new URL(config.origin ?? requestUrl.origin);
  // Proxies and URL normalisation can squash `https://` to `https:/` inside a path.
  const absolute = /^https?:\/\/?/i.exec(raw);
  if (absolute) {
    let url: URL;
    try {
      url = new URL(raw.replace(/^(https?:)\/\/?/i, '$1//'));
    } catch {
      return refuse(400, 'the source URL is not valid', { source: raw });
    }
    if (url.username || url.password) return refuse(400, 'source URLs must not carry credentials', { source: raw });
    // The site's own absolute URLs (as pages and origin redirects write them) are its own images, as on Cloudflare
    // where a zone's own sources need no allow-list: they go the way relative paths go.
    if (url.origin === base.origin || url.origin === requestUrl.origin) {
      return ownSource(url.pathname + url.search, raw, base, requestUrl);
    }
    if (!config.allowedOrigins.includes(url.origin)) {
      // The list itself is not shown: it may name hosts the site owner keeps private; the owner knows the setting.
      return refuse(403, 'the source origin is not on the allow-list', {
        source: url.origin,
        setting: 'IMAGES_ALLOWED_ORIGINS',
      });
    }
    return { ok: true, source: { url, ownOrigin: false, publicUrl: url } };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return refuse(400, 'only http and https sources are allowed', { source: raw });
  return ownSource(raw.startsWith('/') ? raw : `/${raw}`, raw, base, requestUrl);
}

/** A path on the site: fetched from `base` (IMAGES_ORIGIN or the site), known to clients by the site's own URL. */
function ownSource(path: string, raw: string, base: URL, requestUrl: URL): Located {
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return refuse(400, 'the source path is not valid', { source: raw });
  }
  if (url.origin !== base.origin || path.startsWith('//') || path.includes('\\')) {
    return refuse(400, 'the source path would leave the origin', { source: raw });
  }
  if (/^\/+cdn-cgi\//.test(url.pathname))
    return refuse(400, 'the source cannot be another /cdn-cgi/ URL', { source: raw });
  // The path set on the site's URL, never parsed against it: a pathname dot segments squashed to `//host/…` would
  // parse as another host.
  const publicUrl = new URL(url.href);
  publicUrl.protocol = requestUrl.protocol;
  publicUrl.hostname = requestUrl.hostname;
  publicUrl.port = requestUrl.port; // '' clears IMAGES_ORIGIN's port (the host setter would keep it)
  return { ok: true, source: { url, ownOrigin: true, publicUrl } };
}

/** Fetchers for a source: `own` reaches the origin (or assets) through the middleware chain, `network` the internet. */
export interface SourceFetchers {
  readonly own: (request: Request) => Promise<Response>;
  readonly network: (request: Request) => Promise<Response>;
}

/** How each hop is fetched: `cf` options (e.g. `cf.image` for Cloudflare's engine), and whether own-origin sources
 * also go over the network (Cloudflare transforms only what it fetches itself). */
export interface SourceFetchOptions {
  readonly cf?: RequestInitCfProperties;
  readonly alwaysNetwork?: boolean;
}

/** `url` is where the source was fetched from, after redirects; `publicUrl` the same source as clients know it. */
export type Fetched =
  | { readonly ok: true; readonly response: Response; readonly url: URL; readonly publicUrl: URL }
  | { readonly ok: false; readonly problem: SourceError; readonly url: URL; readonly publicUrl: URL };

/**
 * Fetches a located source with no cookies or credentials (a fresh request, not the visitor's), following at most
 * `config.maxRedirects` redirects by hand so every hop is checked against the same rules as the first URL.
 */
export async function fetchSource(
  located: SourceLocation,
  config: ImagesConfig,
  fetchers: SourceFetchers,
  requestUrl: URL,
  via: SourceFetchOptions = {},
): Promise<Fetched> {
  let current = located;
  for (let hop = 0; hop <= config.maxRedirects; hop += 1) {
    const request = new Request(current.url, {
      headers: { accept: 'image/avif,image/webp,image/*;q=0.8' },
      // Never `follow`: the runtime would fetch a redirect's target without asking the allow-list.
      redirect: 'manual',
      ...(via.cf ? { cf: via.cf } : {}),
    });
    let response: Response;
    try {
      response = await (current.ownOrigin && !via.alwaysNetwork ? fetchers.own : fetchers.network)(request);
    } catch (error) {
      return failed(current, 502, 'the source could not be fetched', { reason: String(error) });
    }
    if (response.status < 300 || response.status >= 400 || response.status === 304) {
      // A part of the file (the origin's own Range logic, a CDN's slice) is never the source: its bytes would be taken
      // for the whole image (until 2026-11-28 it was served on as a 206 with "truncated").
      if (response.status === 206) {
        await response.body?.cancel();
        return failed(current, 502, 'the source answered 206 with part of the file', {
          source: current.publicUrl.href,
        });
      }
      if (response.ok)
        return { ok: true, response: withoutCookies(response), url: current.url, publicUrl: current.publicUrl };
      const status = response.status >= 500 ? 502 : response.status;
      return failed(current, status, `the source answered ${response.status}`, { source: current.publicUrl.href });
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) return failed(current, 502, 'the source redirected without a Location', {});
    const next = locateSource(new URL(location, current.url).href, requestUrl, config);
    if (!next.ok)
      return failed(current, next.problem.status, next.problem.error, {
        ...next.problem.detail,
        redirectedFrom: current.publicUrl.href,
      });
    current = next.source;
  }
  return failed(current, 502, 'the source redirected too many times', { maxRedirects: config.maxRedirects });
}

/**
 * The source's response without the cookies its origin set: they answer this Worker's own request, which carried
 * none, so they are a new session or load-balancer affinity that, handed on, would replace the visitor's own.
 */
function withoutCookies(response: Response): Response {
  if (!response.headers.has('set-cookie')) return response;
  const headers = new Headers(response.headers);
  headers.delete('set-cookie');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

const failed = (at: SourceLocation, status: number, error: string, detail: Record<string, unknown>): Fetched => ({
  ok: false,
  problem: { status, error, detail },
  url: at.url,
  publicUrl: at.publicUrl,
});

/** A body read whole, or, when over the limit, its first bytes (to tell what it is) and the whole body again. */
export type ReadSource =
  | { readonly complete: true; readonly bytes: Uint8Array }
  | { readonly complete: false; readonly head: Uint8Array; readonly body: ReadableStream<Uint8Array> };

/** Bytes enough to recognise every supported format by its magic number. */
const headBytes = 64;

/**
 * Like `readLimited`, but a body over `maxBytes` is not thrown away: its first bytes are returned to check what it is
 * (a large image may be passed through; a large document may not), with a stream of the whole body.
 */
export async function readSource(response: Response, maxBytes: number): Promise<ReadSource> {
  if (!response.body) return { complete: true, bytes: new Uint8Array() };
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    if (declared > maxBytes && total >= headBytes) break;
    const { done, value } = await reader.read();
    if (done) return { complete: true, bytes: concatBytes(chunks) };
    chunks.push(value);
    total += value.byteLength;
    if (total > maxBytes) break;
  }
  const head = concatBytes(chunks).subarray(0, headBytes);
  const queued = [...chunks];
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = queued.shift();
      if (next) return controller.enqueue(next);
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return { complete: false, head, body };
}
