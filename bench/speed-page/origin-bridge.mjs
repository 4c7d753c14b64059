// How the lab's server namespace reaches the site under test, wherever it is (another host, or this machine's own
// loopback, which a namespace cannot see): an HTTP proxy in the lab's own namespace listening on a Unix socket
// (the file system is shared across network namespaces), and `relay.mjs` inside the server namespace turning TCP
// into that socket. The proxy rewrites Host to the site's, and also serves the BinaryAST loader's files under
// `loaderPrefix`, standing in for the site owner who hosts them next to their scripts.
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { extname, join, normalize } from 'node:path';

export const loaderPrefix = '/__speedkit/binast/';
const hopByHop = new Set(['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'proxy-connection', 'te']);
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
    /** @type {http.OutgoingHttpHeaders} */
    const headers = {};
    for (const [name, value] of Object.entries(request.headers)) if (!hopByHop.has(name)) headers[name] = value;
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
        /** @type {http.OutgoingHttpHeaders} */
        const out = {};
        for (const [name, value] of Object.entries(answer.headers)) if (!hopByHop.has(name)) out[name] = value;
        response.writeHead(answer.statusCode ?? 502, out);
        answer.pipe(response);
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
