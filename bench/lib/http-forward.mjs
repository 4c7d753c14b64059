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
 * Sends an upstream answer on: its status, its headers (hop-by-hop ones left out) with `extra` over them, its body.
 * @param {import('node:http').IncomingMessage} answer @param {import('node:http').ServerResponse} response
 * @param {OutgoingHttpHeaders} [extra]
 */
export function relayAnswer(answer, response, extra = {}) {
  response.writeHead(answer.statusCode ?? 502, { ...passOn(answer.headers), ...extra });
  answer.pipe(response);
}
