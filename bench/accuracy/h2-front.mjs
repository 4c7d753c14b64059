// `--front h2`: a plain HTTP/2 (TLS) reverse proxy in front of `wrangler dev`, run in the server namespace, so the
// browser talks to the Worker as it does on Cloudflare — every request to the origin on one TCP connection (the
// engine's parallel streams share its congestion window; loaded pings queue behind the transfer in it) — while the
// hop to wrangler dev is local. Nothing is paced or scheduled: each stream's request and body are forwarded as they
// come, both ways, with backpressure (pipe). Started by server.mjs:
//   node h2-front.mjs --host 10.99.0.1 --port 8943 --upstream http://10.99.0.1:8900 --cert cert.pem --key key.pem
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { parseArgs } from 'node:util';
import { requestUpstream } from '../priority/lab/upstream.mjs';
import { downstreamResponse, upstreamRequest } from './h2-front-headers.mjs';

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
  allowHTTP1: false,
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
      else h2.respond({ ':status': 502, 'x-speedkit-lab-error': reason }, { endStream: true });
    },
  );
  // An upload's body goes on as it arrives; a cancelled stream ends the upstream request too.
  h2.on('close', () => {
    if (!request.writableFinished) request.destroy();
  });
  h2.pipe(request);
});

server.listen(Number(values.port), values.host, () => {
  process.stdout.write(`h2 front listening on ${values.host}:${values.port} → ${upstream.origin}\n`);
});
