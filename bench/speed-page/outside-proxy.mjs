// Third parties (fonts, CDNs, analytics) are part of a real page's load, and the lab's client namespace has no route
// to them. This is an HTTP forward proxy in the lab's own namespace, on a Unix socket that `relay.mjs` reaches from
// inside the server namespace, as the origin bridge is: Chromium is started with it as its proxy (the site's own host
// and the lab's server bypass it), so a third-party request crosses the shaped link like every other, then leaves
// from this machine. `CONNECT host:port` tunnels carry https (TLS end to end, HTTP/2 inside); absolute-form requests
// carry http.
import http from 'node:http';
import net from 'node:net';
import { passOn, relayAnswer } from '../lib/http-forward.mjs';

/**
 * `host:port` of a CONNECT request, or null when it is not one (a port from 1 to 65535 is required).
 * @param {string} target @returns {{ host: string, port: number } | null}
 */
export function connectTarget(target) {
  const match = /^(\[[0-9a-f:.]+\]|[^:/?#[\]@\s]+):(\d{1,5})$/i.exec(target);
  if (!match) return null;
  const port = Number(match[2]);
  if (port < 1 || port > 65_535) return null;
  return { host: match[1].replace(/^\[|\]$/g, ''), port };
}

/**
 * @param {{ socketPath: string, lookup?: net.LookupFunction }} options `lookup` replaces DNS (tests name hosts that
 * only they serve)
 * @returns {Promise<http.Server>}
 */
export function startOutsideProxy({ socketPath, lookup }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64, ...(lookup ? { lookup } : {}) });
  const server = http.createServer((request, response) => {
    const url = URL.parse(request.url ?? '');
    // Only absolute-form http:// requests are a proxy's to forward (https arrives as CONNECT).
    if (url?.protocol !== 'http:') {
      response.writeHead(400, { 'content-type': 'text/plain' }).end('speed-page proxy: absolute http:// URL expected');
      return;
    }
    const headers = passOn(request.headers);
    const upstream = http.request(url, { agent, method: request.method, headers }, (answer) =>
      relayAnswer(answer, response),
    );
    upstream.on('error', (error) => {
      if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
      response.end(`speed-page proxy: ${url.host} did not answer: ${error.message}`);
    });
    request.pipe(upstream);
  });
  server.on('connect', (request, client, head) => {
    client.on('error', () => client.destroy());
    const target = connectTarget(request.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    const outgoing = net.connect({ host: target.host, port: target.port, ...(lookup ? { lookup } : {}) });
    let tunnelled = false;
    outgoing.once('connect', () => {
      tunnelled = true;
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) outgoing.write(head);
      outgoing.pipe(client).pipe(outgoing);
    });
    outgoing.on('error', () => {
      // Before the tunnel is up the browser gets an answer it can show; after, both ends just close.
      if (tunnelled) client.destroy();
      else client.end('HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n');
    });
    client.on('close', () => outgoing.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve(server));
  });
}
