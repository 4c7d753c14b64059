// What the accuracy lab's HTTP/2 front (h2-front.mjs) passes between the browser's HTTP/2 streams and wrangler dev's
// HTTP/1.1: pure, so the translation is unit-tested apart from the sockets.
import { hopByHop } from '../lib/http-forward.mjs';

/**
 * An upstream HTTP/1.1 answer's status and headers as an HTTP/2 response head: the connection-specific headers left
 * out (node:http2 refuses to send them, and chunked framing is HTTP/1.1's: HTTP/2 frames the body itself).
 * @param {number | undefined} statusCode
 * @param {import('node:http').IncomingHttpHeaders} headers
 * @returns {import('node:http2').OutgoingHttpHeaders}
 */
export function downstreamResponse(statusCode, headers) {
  /** @type {import('node:http2').OutgoingHttpHeaders} */
  const out = { ':status': statusCode ?? 502 };
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || hopByHop.has(name)) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The head of a WebSocket upgrade request (HTTP/1.1, a connection of its own) as the front writes it to the upstream
 * before relaying the connection's bytes both ways: the browser's request line and headers in their order and
 * spelling, all kept (Connection and Upgrade are the point here), with Host naming the upstream.
 * @param {string} method
 * @param {string} url the request target, e.g. /__up-ws?measId=1
 * @param {string[]} rawHeaders name, value, name, value… as node:http reads them
 * @param {string} upstreamHost host:port of wrangler dev
 */
export function upgradeRequestHead(method, url, rawHeaders, upstreamHost) {
  const lines = [`${method} ${url} HTTP/1.1`];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    lines.push(`${name}: ${name.toLowerCase() === 'host' ? upstreamHost : rawHeaders[i + 1]}`);
  }
  return `${lines.join('\r\n')}\r\n\r\n`;
}
