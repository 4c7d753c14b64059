// How the lab's server namespace reaches the site under test, wherever it is (another host, or this machine's own
// loopback, which a namespace cannot see): an HTTP proxy in the lab's own namespace listening on a Unix socket
// (the file system is shared across network namespaces), and `relay.mjs` inside the server namespace turning TCP
// into that socket. The proxy rewrites Host to the site's, and also serves the BinaryAST loader's files under
// `loaderPrefix`, standing in for the site owner who hosts them next to their scripts.
//
// The lab opens an http:// site's page at its own address (see addressing.mjs), so the page's absolute URLs to the
// site's host are another origin there, where deployed they are the page's own: fonts, module scripts and fetch()
// would be refused for want of CORS headers the site never needed. Answers without such headers admit the asking
// origin, and preflights are answered here, as the same-origin load would have gone.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { extname, join, normalize } from 'node:path';
import { passOn, relayAnswer } from '../lib/http-forward.mjs';

export const loaderPrefix = '/__speedkit/binast/';

/**
 * CORS headers admitting `origin` (credentials included; a preflight's method and headers echoed).
 * @param {string} origin @param {http.IncomingHttpHeaders} requestHeaders @returns {http.OutgoingHttpHeaders}
 */
function admitOrigin(origin, requestHeaders) {
  const method = requestHeaders['access-control-request-method'];
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-credentials': 'true',
    ...(method
      ? {
          'access-control-allow-methods': String(method),
          'access-control-allow-headers': String(requestHeaders['access-control-request-headers'] ?? ''),
        }
      : {}),
  };
}
/** @type {Record<string, string>} */
const loaderTypes = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.mjs': 'text/javascript' };

/**
 * @param {{ target: URL, socketPath: string, loaderDir: string }} options target = the site's origin
 * @returns {Promise<http.Server>}
 */
export function startOriginBridge({ target, socketPath, loaderDir }) {
  const client = target.protocol === 'https:' ? https : http;
  const agent = new client.Agent({ keepAlive: true, maxSockets: 32 });
  const server = http.createServer((request, response) => {
    const path = request.url ?? '/';
    if (path.startsWith(loaderPrefix)) return serveLoaderFile(loaderDir, path.slice(loaderPrefix.length), response);
    const origin = request.headers.origin;
    if (request.method === 'OPTIONS' && origin && request.headers['access-control-request-method']) {
      response.writeHead(204, admitOrigin(origin, request.headers)).end();
      return;
    }
    const headers = passOn(request.headers);
    headers.host = target.host;
    const upstream = client.request(
      {
        agent,
        protocol: target.protocol,
        host: target.hostname,
        port: target.port,
        path,
        method: request.method,
        headers,
      },
      (answer) => {
        const admit = origin !== undefined && answer.headers['access-control-allow-origin'] === undefined;
        const vary = [answer.headers.vary, 'Origin'].filter(Boolean).join(', ');
        relayAnswer(answer, response, admit ? { ...admitOrigin(origin, request.headers), vary } : {});
      },
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`speed-page bridge: ${target.origin} did not answer: ${error.message}`);
    });
    request.pipe(upstream);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}

/** @param {string} dir @param {string} name @param {http.ServerResponse} response */
function serveLoaderFile(dir, name, response) {
  const file = join(dir, normalize(`/${name.split('?')[0]}`));
  if (!file.startsWith(dir) || !existsSync(file) || !statSync(file).isFile()) {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    return;
  }
  response.writeHead(200, {
    'content-type': loaderTypes[extname(file)] ?? 'application/octet-stream',
    'content-length': statSync(file).size,
    'cache-control': 'public, max-age=3600',
  });
  createReadStream(file).pipe(response);
}
