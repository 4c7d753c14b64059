/** A JSON response; `init.headers` are kept. */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('content-type', 'application/json; charset=utf-8');
  return new Response(JSON.stringify(body), { ...init, headers });
}

/**
 * The error shape every endpoint uses for bad requests: `{ "error": "...", "detail": ... }`.
 * @param status an HTTP 4xx status
 * @param error one sentence saying what is wrong
 * @param detail the offending value, limits, or anything else that helps the caller fix the request
 */
export function jsonError(status: number, error: string, detail?: unknown, init: ResponseInit = {}): Response {
  return json(detail === undefined ? { error } : { error, detail }, { ...init, status });
}
