// The demo site's origin: a plain static file server as a site owner might run (Content-Type, Content-Length,
// strong ETag, an hour of Cache-Control, no compression), serving site/dist.
//   node bench/speed-page/site/origin.mjs --port 8813 [--root bench/speed-page/site/dist]
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** @type {Record<string, string>} */
const types = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.jpg': 'image/jpeg',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
};

/**
 * Starts the origin on 127.0.0.1:`port`; resolves with the server once it listens.
 * @param {{ port: number, root: string }} options
 * @returns {Promise<http.Server>}
 */
export function startStaticOrigin({ port, root }) {
  const server = http.createServer((request, response) => {
    let path;
    try {
      path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://origin').pathname));
    } catch {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('bad path');
      return;
    }
    if (path.endsWith('/')) path += 'index.html';
    const file = join(root, path);
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
    const headers = {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      etag,
      'cache-control': 'public, max-age=3600',
    };
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers).end();
      return;
    }
    response.writeHead(200, { ...headers, 'content-length': body.length });
    response.end(request.method === 'HEAD' ? undefined : body);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '8813' }, root: { type: 'string' } } });
  const root = values.root ?? fileURLToPath(new URL('./dist', import.meta.url));
  await startStaticOrigin({ port: Number(values.port), root });
  process.stdout.write(`demo origin on http://127.0.0.1:${values.port}/ serving ${root}\n`);
}
