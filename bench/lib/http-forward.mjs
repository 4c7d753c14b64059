// What the labs' HTTP proxies (the Speed Page's origin bridge and outside proxy, the HTTP/2 front) pass on of a
// request or an answer.
/** @typedef {import('node:http').IncomingHttpHeaders} IncomingHttpHeaders */
/** @typedef {import('node:http').OutgoingHttpHeaders} OutgoingHttpHeaders */

/** Headers of one connection, not of the message: never forwarded. */
export const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te']);

/** Every header but the hop-by-hop ones (and a client's `proxy-*` ones, meant for the proxy itself). */
export function passOn(/** @type {IncomingHttpHeaders} */ headers) {
  /** @type {OutgoingHttpHeaders} */
  const out = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!hopByHop.has(name) && !name.startsWith('proxy-')) out[name] = value;
  }
  return out;
}

/**
 * An HTTP/2 request's headers as an HTTP/1.1 request to the upstream: pseudo-headers become the method and path,
 * connection-specific headers are dropped (HTTP/2 forbids them, HTTP/1.1 would read them as the proxy's own), and
 * Host names the upstream, so the Worker sees the same Host as when the browser talks to wrangler dev directly. The
 * accuracy lab's HTTP/2 front and the priority lab's scheduling server both forward this way.
 * @param {import('node:http2').IncomingHttpHeaders} h2Headers
 * @param {string} upstreamHost host:port of wrangler dev
 * @returns {{ method: string, path: string, headers: import('node:http').OutgoingHttpHeaders }}
 */
export function upstreamRequest(h2Headers, upstreamHost) {
  /** @type {import('node:http').OutgoingHttpHeaders} */
  const headers = {};
  for (const [name, value] of Object.entries(h2Headers)) {
    if (value === undefined || name.startsWith(':') || hopByHop.has(name)) continue;
    headers[name] = value;
  }
  headers.host = upstreamHost;
  return { method: String(h2Headers[':method'] ?? 'GET'), path: String(h2Headers[':path'] ?? '/'), headers };
}

/**
 * Sends an upstream answer on: its status, its headers (hop-by-hop ones left out) with `extra` over them, its body.
 * @param {import('node:http').IncomingMessage} answer @param {import('node:http').ServerResponse} response
 * @param {OutgoingHttpHeaders} [extra]
 */
export function relayAnswer(answer, response, extra = {}) {
  response.writeHead(answer.statusCode ?? 502, { ...passOn(answer.headers), ...extra });
  answer.pipe(response);
}
