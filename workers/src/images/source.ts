import type { ImagesConfig } from './config';

/** Where a `/cdn-cgi/image/` source points, after the allow-list check. */
export interface SourceLocation {
  readonly url: URL;
  /** Served by the configured origin (or the static assets), so fetched through the middleware's `next`. */
  readonly ownOrigin: boolean;
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
    if (url.origin === base.origin) return { ok: true, source: { url, ownOrigin: true } };
    if (!config.allowedOrigins.includes(url.origin)) {
      return refuse(403, 'the source origin is not on the allow-list', {
        source: url.origin,
        allowed: config.allowedOrigins,
      });
    }
    return { ok: true, source: { url, ownOrigin: false } };
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return refuse(400, 'only http and https sources are allowed', { source: raw });
  const path = raw.startsWith('/') ? raw : `/${raw}`;
  let url: URL;
  try {
    url = new URL(path, base);
  } catch {
    return refuse(400, 'the source path is not valid', { source: raw });
  }
  if (url.origin !== base.origin || path.startsWith('//') || path.includes('\\')) {
    return refuse(400, 'the source path would leave the origin', { source: raw });
  }
  if (url.pathname.startsWith('/cdn-cgi/'))
    return refuse(400, 'the source cannot be another /cdn-cgi/ URL', { source: raw });
  return { ok: true, source: { url, ownOrigin: true } };
}

/** Fetchers for a source: `own` reaches the origin (or assets) through the middleware chain, `network` the internet. */
export interface SourceFetchers {
  readonly own: (request: Request) => Promise<Response>;
  readonly network: (request: Request) => Promise<Response>;
}

export type Fetched =
  | { readonly ok: true; readonly response: Response; readonly url: URL }
  | { readonly ok: false; readonly problem: SourceError; readonly url: URL };

/**
 * Fetches a located source with no cookies or credentials (a fresh request, not the visitor's), following at most
 * `config.maxRedirects` redirects by hand so every hop is checked against the same rules as the first URL.
 */
export async function fetchSource(
  located: SourceLocation,
  config: ImagesConfig,
  fetchers: SourceFetchers,
  requestUrl: URL,
): Promise<Fetched> {
  let current = located;
  for (let hop = 0; hop <= config.maxRedirects; hop += 1) {
    const request = new Request(current.url, {
      headers: { accept: 'image/avif,image/webp,image/*;q=0.8' },
      redirect: 'manual',
    });
    let response: Response;
    try {
      response = await (current.ownOrigin ? fetchers.own : fetchers.network)(request);
    } catch (error) {
      return failed(current.url, 502, 'the source could not be fetched', { reason: String(error) });
    }
    if (response.status < 300 || response.status >= 400 || response.status === 304) {
      if (response.ok) return { ok: true, response, url: current.url };
      const status = response.status >= 500 ? 502 : response.status;
      return failed(current.url, status, `the source answered ${response.status}`, { source: current.url.href });
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) return failed(current.url, 502, 'the source redirected without a Location', {});
    const next = locateSource(new URL(location, current.url).href, requestUrl, config);
    if (!next.ok)
      return {
        ok: false,
        problem: { ...next.problem, detail: { ...next.problem.detail, redirectedFrom: current.url.href } },
        url: current.url,
      };
    current = next.source;
  }
  return failed(current.url, 502, 'the source redirected too many times', { maxRedirects: config.maxRedirects });
}

const failed = (url: URL, status: number, error: string, detail: Record<string, unknown>): Fetched => ({
  ok: false,
  problem: { status, error, detail },
  url,
});

/**
 * Reads a body up to `maxBytes`. Returns `null` when it is larger (checked from Content-Length first, then while
 * reading, since the header can be missing or wrong); the stream is cancelled then.
 */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes || !response.body) {
    await response.body?.cancel();
    return response.body ? null : new Uint8Array();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
