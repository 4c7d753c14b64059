// Conditional requests judged by the Worker against the representation it serves. When one URL has several
// representations (JavaScript or BinaryAST, JPEG or AVIF), the origin's own 304 would be about the wrong one: browsers
// revalidate with `If-None-Match` even when the new request's `Accept` differs (Chromium does). So the origin is asked
// unconditionally and the condition is judged here.

const conditionalHeaders = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'];

/** The same request without validators, so the origin answers 200 with a body the Worker can inspect. */
export function withoutConditionals(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of conditionalHeaders) headers.delete(name);
  return new Request(request, { headers });
}

/**
 * Strong-or-weak ETag match per RFC 9110 §13.1.2 (If-None-Match uses the weak comparison), for a representation the
 * Worker is about to serve. `*` matches any current representation, one without an ETag too.
 */
export function etagMatches(ifNoneMatch: string | null, etag: string | null): boolean {
  if (ifNoneMatch === null) return false;
  const candidates = ifNoneMatch.split(',').map((candidate) => candidate.trim());
  if (candidates.includes('*')) return true;
  if (etag === null) return false;
  const opaque = (tag: string) => tag.replace(/^W\//, '');
  const wanted = opaque(etag.trim());
  return candidates.some((candidate) => opaque(candidate) === wanted);
}

/**
 * RFC 9110 §13.2.2 for a GET, judged against the representation about to be served: If-None-Match when present
 * (weak comparison), else If-Modified-Since against its Last-Modified. A representation without Last-Modified (a
 * BinaryAST variant) never answers 304 to a date the browser saved with another representation.
 */
export function isNotModified(request: Request, response: Response): boolean {
  if (response.status !== 200) return false;
  const ifNoneMatch = request.headers.get('if-none-match');
  if (ifNoneMatch !== null) return etagMatches(ifNoneMatch, response.headers.get('etag'));
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  const modified = Date.parse(response.headers.get('last-modified') ?? '');
  return Number.isFinite(since) && Number.isFinite(modified) && modified <= since;
}

/** Headers a 304 repeats from the representation it stands for (RFC 9110 §15.4.5). */
const notModifiedHeaders = ['etag', 'cache-control', 'vary', 'last-modified', 'expires'];

/**
 * A 304 for `response`'s representation: its validators and caching headers, plus `extraHeaders` (a capability's
 * debugging header), no body.
 */
export function notModified(response: Response, extraHeaders: readonly string[] = []): Response {
  const headers = new Headers();
  for (const name of [...notModifiedHeaders, ...extraHeaders]) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}
