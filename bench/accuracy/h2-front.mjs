// `--front h2`: a plain HTTP/2 (TLS) reverse proxy in front of `wrangler dev`, run in the server namespace, so the
// browser talks to the Worker as it does on Cloudflare — every request to the origin on one TCP connection (the
// engine's parallel streams share its congestion window; loaded pings queue behind the transfer in it) — while the
// hop to wrangler dev is local. Nothing is paced or scheduled: each stream's request and body are forwarded as they
// come, both ways, with backpressure (pipe). A WebSocket (the engine's socket uploads, `/__up-ws`, on long paths)
// arrives as Chromium opens it to a server that does not offer WebSockets over HTTP/2 (RFC 8441): on a TLS connection
// of its own, HTTP/1.1 by ALPN, whose bytes are relayed to wrangler dev unchanged after the request head. Started by
// server.mjs:
//   node h2-front.mjs --host 10.99.0.1 --port 8943 --upstream http://10.99.0.1:8900 --cert cert.pem --key key.pem
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import net from 'node:net';
import { parseArgs } from 'node:util';
import { upstreamRequest } from '../lib/http-forward.mjs';
import { labErrorHeader, requestUpstream } from '../priority/lab/upstream.mjs';
import { downstreamResponse, upgradeRequestHead } from './h2-front-headers.mjs';

const { values } = parseArgs({
  options: {
    host: { type: 'string', default: '0.0.0.0' },
    port: { type: 'string' },
    upstream: { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
  },
});
const upstream = new URL(String(values.upstream));

// HTTP/2 flow control must not be the limit: with node's default 64 KiB windows an upload could carry at most
// 64 KiB per RTT (6.5 Mbit/s at 80 ms), a ceiling of this proxy, not of the path (Cloudflare's edge tunes its
// receive windows to the connection). 16 MiB per stream and 64 MiB per connection exceed the largest
// bandwidth-delay product plus tbf queue the lab builds (100 Mbit/s × (80 ms + 400 ms) = 6 MB); TCP's own windows
// and the socket buffers then give the backpressure, as on an HTTP/1.1 connection.
const streamWindowBytes = 16 * 1024 * 1024;
const sessionWindowBytes = 64 * 1024 * 1024;

const server = http2.createSecureServer({
  cert: readFileSync(String(values.cert)),
  key: readFileSync(String(values.key)),
  // HTTP/1.1 only for WebSocket upgrades (below): no other request of the engine's leaves the HTTP/2 connection.
  allowHTTP1: true,
  settings: { initialWindowSize: streamWindowBytes },
  // Room for the windows above: nghttp2 answers ENHANCE_YOUR_CALM once a session holds more than this (MB).
  maxSessionMemory: 256,
});

server.on('session', (session) => {
  // The connection-level window is not a SETTING: it is opened with a WINDOW_UPDATE once the session is up.
  session.on('connect', () => session.setLocalWindowSize(sessionWindowBytes));
  if (!session.connecting) session.setLocalWindowSize(sessionWindowBytes);
});
// A browser resetting a stream (the engine aborts its transfers) or closing the connection is normal.
server.on('sessionError', () => {});

server.on('stream', (h2, h2Headers) => {
  h2.on('error', () => {});
  const { method, path, headers } = upstreamRequest(h2Headers, upstream.host);
  const request = requestUpstream(
    { host: upstream.hostname, port: upstream.port, path, method, headers },
    (response) => {
      if (h2.destroyed) return response.destroy();
      h2.respond(downstreamResponse(response.statusCode, response.headers));
      response.pipe(h2);
      // A stream the browser cancelled must not keep wrangler dev sending into nothing.
      h2.on('close', () => {
        if (!response.complete) response.destroy();
      });
    },
    (reason) => {
      if (h2.destroyed) return;
      if (h2.headersSent) h2.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      else h2.respond({ ':status': 502, [labErrorHeader]: reason }, { endStream: true });
    },
  );
  // An upload's body goes on as it arrives; a cancelled stream ends the upstream request too.
  h2.on('close', () => {
    if (!request.writableFinished) request.destroy();
  });
  h2.pipe(request);
});

// A WebSocket: its request head to wrangler dev, then the connection's bytes both ways as they come (pipe).
server.on('upgrade', (request, socket, head) => {
  const upstreamSocket = net.connect(Number(upstream.port), upstream.hostname);
  const end = () => {
    socket.destroy();
    upstreamSocket.destroy();
  };
  socket.on('error', end);
  upstreamSocket.on('error', end);
  socket.on('close', end);
  upstreamSocket.on('close', end);
  upstreamSocket.on('connect', () => {
    // Small frames (the server's byte reports) must not wait for Nagle's algorithm on either hop.
    upstreamSocket.setNoDelay(true);
    if ('setNoDelay' in socket) socket.setNoDelay(true);
    upstreamSocket.write(
      upgradeRequestHead(String(request.method), String(request.url), request.rawHeaders, upstream.host),
    );
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.pipe(socket);
    socket.pipe(upstreamSocket);
  });
});

server.listen(Number(values.port), values.host, () => {
  process.stdout.write(`h2 front listening on ${values.host}:${values.port} → ${upstream.origin}\n`);
});
