import type { Middleware } from '../shared/middleware';

/**
 * Marks up a site's pages for the BinaryAST loader (packages/binast-loader) so a site owner need not edit them:
 * HTML responses get the loader's `<script src>` first in `<head>`, and each same-origin classic or module
 * `<script src>` becomes `type="binast"` / `type="binast-module"`, which the loader fetches as BinaryAST with a
 * plain-JS fallback. Off unless `BINAST_REWRITE_LOADER` names the loader's URL (hosted by the site, decoder beside
 * it). Scripts it cannot vouch for are left alone: inline, cross-origin, `integrity`, `nomodule`, other types, and
 * every script of a page without a `<head>` (the loader could not be placed before them).
 */

const classicTypes = new Set(['', 'text/javascript', 'application/javascript', 'application/ecmascript']);

/** The loader URL from `BINAST_REWRITE_LOADER`, or null when rewriting is off. */
export function rewriteLoaderUrl(env: Readonly<Record<string, unknown>>): string | null {
  const raw = env.BINAST_REWRITE_LOADER;
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  return raw.trim();
}

/** The `type` a script element should get, or null to leave it as it is. */
export function loaderTypeFor(
  attributes: { type: string | null; src: string | null; integrity: boolean; nomodule: boolean },
  pageUrl: URL,
  loaderUrl: string,
): 'binast' | 'binast-module' | null {
  if (attributes.src === null || attributes.integrity || attributes.nomodule) return null;
  let src: URL;
  try {
    src = new URL(attributes.src, pageUrl);
  } catch {
    return null;
  }
  if (src.origin !== pageUrl.origin || src.href === new URL(loaderUrl, pageUrl).href) return null;
  const type = (attributes.type ?? '').trim().toLowerCase();
  if (type === 'module') return 'binast-module';
  return classicTypes.has(type) ? 'binast' : null;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** Rewrites one HTML response; anything else (or an error status) passes through untouched. */
function rewriteForLoader(response: Response, pageUrl: URL, loaderUrl: string): Response {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !/^text\/html\b/i.test(type)) return response;
  let loaderPlaced = false;
  const rewritten = new HTMLRewriter()
    .on('head', {
      element(head) {
        if (loaderPlaced) return;
        head.prepend(`<script src="${escapeAttribute(loaderUrl)}"></script>`, { html: true });
        loaderPlaced = true;
      },
    })
    .on('script[src]', {
      element(script) {
        if (!loaderPlaced) return;
        const next = loaderTypeFor(
          {
            type: script.getAttribute('type'),
            src: script.getAttribute('src'),
            integrity: script.hasAttribute('integrity'),
            nomodule: script.hasAttribute('nomodule'),
          },
          pageUrl,
          loaderUrl,
        );
        if (next) script.setAttribute('type', next);
      },
    })
    .transform(response);
  const out = new Response(rewritten.body, rewritten);
  // The body changed length; a stale Content-Length or a strong ETag of the original would be wrong.
  out.headers.delete('content-length');
  const etag = out.headers.get('etag');
  if (etag && !etag.startsWith('W/')) out.headers.set('etag', `W/${etag}`);
  out.headers.set('x-speedkit-binast-rewrite', 'loader');
  return out;
}

/** Middleware form for the standalone Worker: off (a pure pass-through) unless `BINAST_REWRITE_LOADER` is set. */
export const binastRewriteMiddleware: Middleware = async (request, env, _ctx, next) => {
  const loaderUrl = rewriteLoaderUrl(env as unknown as Record<string, unknown>);
  const response = await next(request);
  if (loaderUrl === null || request.method !== 'GET') return response;
  try {
    return rewriteForLoader(response, new URL(request.url), loaderUrl);
  } catch (error) {
    console.warn(`binast rewrite: left the page as it was: ${String(error)}`);
    return response;
  }
};
