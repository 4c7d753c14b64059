// The site owner's origin for the lab: a plain static file server (Content-Type, Content-Length, strong ETag), so the
// priority Worker runs as it would be deployed alone (`--env priority`) in front of someone else's server.
//   node origin.mjs --port 8900 --root apps/speedtest/public
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import { extname, join, normalize } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, root: { type: 'string' } } });
const root = String(values.root);
/** @type {Record<string, string>} */
const types = { '.html': 'text/html; charset=utf-8', '.jpg': 'image/jpeg', '.png': 'image/png', '.css': 'text/css' };

http
  .createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://origin').pathname));
    const file = join(root, path);
    if (!file.startsWith(root) || !statSync(file, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const body = readFileSync(file);
    response.writeHead(200, {
      'content-type': types[extname(file)] ?? 'application/octet-stream',
      'content-length': body.length,
      etag: `"${createHash('sha1').update(body).digest('hex')}"`,
      'cache-control': 'no-store',
    });
    response.end(request.method === 'HEAD' ? undefined : body);
  })
  .listen(Number(values.port), '127.0.0.1', () => process.stdout.write(`origin on 127.0.0.1:${values.port}\n`));
