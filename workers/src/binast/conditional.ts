// Conditional requests across two representations of one URL. Browsers revalidate a cached script with
// `If-None-Match` even when the new request's `Accept` differs (Chromium does), so passing the asset's 304 through
// would pin a URL to JavaScript forever. The origin is asked unconditionally and the condition is judged here,
// against the representation actually chosen.

const conditionalHeaders = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range'];

/** The same request without validators, so the origin answers 200 with a body the Worker can inspect. */
export function withoutConditionals(request: Request): Request {
  const headers = new Headers(request.headers);
  for (const name of conditionalHeaders) headers.delete(name);
  return new Request(request, { headers });
}

/** Strong-or-weak ETag match per RFC 9110 §13.1.2 (If-None-Match uses the weak comparison). */
export function etagMatches(ifNoneMatch: string | null, etag: string | null): boolean {
  if (ifNoneMatch === null || etag === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((candidate) => candidate.trim() === '*' || opaque(candidate) === wanted);
}

/** A 304 for `response`'s representation: its validators and caching headers, no body. */
export function notModified(response: Response): Response {
  const headers = new Headers();
  for (const name of ['etag', 'cache-control', 'vary', 'last-modified', 'expires', 'x-speedkit-binast']) {
    const value = response.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  return new Response(null, { status: 304, headers });
}
