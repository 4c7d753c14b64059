import type { Middleware } from './middleware';

// The security headers of every HTML page the all-in-one Worker serves (the speed-test SPA, /baseline.html and the
// demo site under /demo/). The Content-Security-Policy lives here and only here; docs/security.md explains it.

/** What the policy needs to know about one page, collected while the page streams through HTMLRewriter. */
export interface PageScripts {
  /** Fresh per response: added to every `<script>` that has no nonce of its own. */
  readonly nonce: string;
  /** Nonces the page already uses (e.g. a `<meta>` policy of its own): honoured so both policies agree. */
  readonly pageNonces: readonly string[];
  /** `sha256-…` of each inline event-handler attribute (`onload="…"`), allowed through `'unsafe-hashes'`. */
  readonly handlerHashes: readonly string[];
  /** The other origin the page's own URL asks the speed test to measure against (`?server=`), if any. */
  readonly measurementOrigin?: string | undefined;
}

/**
 * The origin a page's `?server=` names, as a CSP source: the speed test (SPA and comparison page) measures against
 * that server instead of this one, and `connect-src 'self'` alone would block every request to it. Only http(s)
 * origins with a plain host name or IPv4 address (CSP's host grammar has no IPv6 literals); anything else adds
 * nothing, and the page then reports the server unreachable as before.
 */
export function measurementOrigin(pageUrl: URL): string | undefined {
  const named = pageUrl.searchParams.get('server');
  if (!named) return undefined;
  let server: URL;
  try {
    server = new URL(named);
  } catch {
    return undefined;
  }
  if (server.protocol !== 'http:' && server.protocol !== 'https:') return undefined;
  if (!/^[a-z0-9.-]+$/i.test(server.hostname) || server.origin === pageUrl.origin) return undefined;
  return server.origin;
}

/**
 * The Content-Security-Policy for one page, one directive per line of reasoning:
 * - `default-src 'self'`: anything not named below (fonts, manifests, media, frames) only from our origin.
 * - `script-src`: our own files (`'self'`: the SPA's bundle, the BinaryAST loader and its decoder `binast.js`), inline
 *   scripts only with this response's nonce (the demos' inline modules; the loader copies its nonce to every decoded
 *   script it inserts), the page's own nonces, the hashes of its inline event handlers, and `'wasm-unsafe-eval'`
 *   because the BinaryAST decoder compiles Wasm. No `'unsafe-inline'`, no `'unsafe-eval'`: injected markup cannot run.
 * - `style-src 'self' 'unsafe-inline'`: the demos style themselves with `<style>` and Chart.js sets inline styles;
 *   styles cannot run code, so this is the usual, accepted trade-off.
 * - `img-src 'self' data: blob:`: our images (and `/cdn-cgi/image/` variants), the SPA's data-URL favicon, canvases
 *   exported by Chart.js.
 * - `connect-src 'self'`: the speed test measures against this origin (`/__down`, `/__up`, `/meta`, and
 *   `/__up-ws`: CSP 3 lets 'self' match ws:/wss: on the same host, which the e2e upload over it shows); the loader
 *   fetches scripts and `binast_bg.wasm` from here. Plus the origin the page's URL names with `?server=`
 *   (`measurementOrigin`; an https source also matches wss), which is what that option asks for.
 * - `worker-src 'self' blob:`: room for a same-origin measurement worker; nothing else may start one.
 * - `object-src 'none'`: no plugins.
 * - `base-uri 'self'`: an injected `<base>` cannot redirect relative script URLs elsewhere.
 * - `form-action 'self'`: forms (none today) cannot post elsewhere.
 * - `frame-ancestors 'self'`: no framing by other sites (clickjacking); same-origin demos may embed each other.
 */
function contentSecurityPolicy(page: PageScripts): string {
  const scriptSources = [
    "'self'",
    `'nonce-${page.nonce}'`,
    ...page.pageNonces.map((nonce) => `'nonce-${nonce}'`),
    ...(page.handlerHashes.length > 0 ? ["'unsafe-hashes'", ...page.handlerHashes.map((hash) => `'${hash}'`)] : []),
    "'wasm-unsafe-eval'",
  ];
  return [
    "default-src 'self'",
    `script-src ${scriptSources.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    `connect-src 'self'${page.measurementOrigin ? ` ${page.measurementOrigin}` : ''}`,
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}

/** The other two headers every HTML page carries. */
const fixedPageHeaders: Readonly<Record<string, string>> = {
  // Browsers must not guess a type: an image or JSON answer can never be sniffed into a document or a script.
  'x-content-type-options': 'nosniff',
  // Full URLs (with query strings) stay on our origin; other sites see only the origin.
  'referrer-policy': 'strict-origin-when-cross-origin',
};

/** Pages above this size are not rewritten (ours are a few KB): they get a policy without a nonce. */
const maxRewrittenHtmlBytes = 2 * 1024 * 1024;

const isHtml = (response: Response) =>
  (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() === 'text/html';

function randomNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes)).replace(/[+/=]/g, (c) => ({ '+': '-', '/': '_', '=': '' })[c] ?? '');
}

async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256-${btoa(String.fromCharCode(...digest))}`;
}

/**
 * Adds the CSP, `X-Content-Type-Options` and `Referrer-Policy` to an HTML response, giving every `<script>` without
 * a nonce this response's nonce. Anything that is not HTML is returned as it is. Never throws: a page that cannot be
 * rewritten still gets the headers, with a policy that allows only our own script files.
 */
export async function withSecurityHeaders(response: Response, pageUrl?: URL): Promise<Response> {
  if (!isHtml(response)) return response;
  const otherServer = pageUrl ? measurementOrigin(pageUrl) : undefined;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(fixedPageHeaders)) headers.set(name, value);
  const init = { status: response.status, statusText: response.statusText, headers };
  const nonce = randomNonce();
  const declared = Number(response.headers.get('content-length') ?? 0);
  if (!response.body || declared > maxRewrittenHtmlBytes || response.headers.has('content-encoding')) {
    const page = { nonce, pageNonces: [], handlerHashes: [], measurementOrigin: otherServer };
    headers.set('content-security-policy', contentSecurityPolicy(page));
    return new Response(response.body, init);
  }
  const pageNonces = new Set<string>();
  const handlers = new Set<string>();
  const rewritten = await new HTMLRewriter()
    .on('script', {
      element(element) {
        const own = element.getAttribute('nonce');
        if (own) pageNonces.add(own);
        else element.setAttribute('nonce', nonce);
      },
    })
    .on('*', {
      element(element) {
        for (const [name, value] of element.attributes as Iterable<[string, string]>) {
          if (/^on[a-z]+$/i.test(name)) handlers.add(value);
        }
      },
    })
    .transform(new Response(response.body, { headers: { 'content-type': 'text/html' } }))
    .text();
  const handlerHashes = await Promise.all([...handlers].map(sha256Base64));
  const page = { nonce, pageNonces: [...pageNonces], handlerHashes, measurementOrigin: otherServer };
  headers.set('content-security-policy', contentSecurityPolicy(page));
  headers.delete('content-length');
  headers.delete('etag'); // the nonce makes each body unique; a validator for the old bytes would be wrong
  return new Response(response.status === 204 || response.status === 304 ? null : rewritten, init);
}

/** The chain entry: every HTML answer of whatever runs after it gets the headers above. */
export const securityHeadersMiddleware: Middleware = async (request, _env, _ctx, next) =>
  withSecurityHeaders(await next(request), new URL(request.url));
