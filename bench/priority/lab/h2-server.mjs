// An HTTP/2 (TLS) reverse proxy that schedules response bytes by priority, in front of `wrangler dev`:
//   node h2-server.mjs --port 8443 --upstream http://127.0.0.1:8803 --mode cf --rate 230000 --cert c.pem --key k.pem
//     [--plain-port 8830]
// It is a self-hosting option too: put it (or any server that honours cf-priority-change / RFC 9218) in front of the
// Worker when not on Cloudflare. Upstream bodies are read as fast as they come; what reaches the client socket is
// decided by the scheduler and paced just under the link rate, so the order is not undone by the kernel's send
// buffer and the shaper's queue (a write that is already queued cannot be overtaken).
import { readFileSync } from 'node:fs';
import http from 'node:http';
import http2 from 'node:http2';
import { parseArgs } from 'node:util';
import { hopByHop, passOn, upstreamRequest } from '../../lib/http-forward.mjs';
import { bytesUntilChange, pickNext, priorityFor } from './scheduler.mjs';
import { labErrorHeader, labRetryHeader, requestUpstream } from './upstream.mjs';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    host: { type: 'string', default: '0.0.0.0' },
    upstream: { type: 'string' },
    mode: { type: 'string', default: 'cf' },
    rate: { type: 'string', default: '230000' },
    cert: { type: 'string' },
    key: { type: 'string' },
    // Also answer cleartext HTTP/1.1 on this port, unscheduled: the Speed Page maps a page's own http:// URLs here.
    'plain-port': { type: 'string' },
  },
});
const mode = /** @type {import('./scheduler.mjs').Mode} */ (values.mode);
const rateBytesPerSecond = Number(values.rate);
const upstream = new URL(String(values.upstream));
// One HTTP/2 DATA frame's worth at most per scheduling decision: small enough to switch streams often.
const quantumBytes = 1400;
const tickMs = 4;
// Token bucket depth: about 2 ticks of data, so pacing never bursts a whole image into the kernel.
const bucketBytes = Math.max(quantumBytes, Math.round((rateBytesPerSecond * 2 * tickMs) / 1000));
// Stripped in every mode so the client receives the same bytes with and without prioritisation.
const priorityHeaders = new Set(['cf-priority', 'cf-priority-change', 'priority']);

/**
 * A response being proxied: its scheduling state, its HTTP/2 stream and the upstream bytes not yet sent.
 * @typedef {import('./scheduler.mjs').ScheduledStream & { h2: import('node:http2').ServerHttp2Stream, queue: Buffer[], upstreamEnded: boolean }} ProxiedStream
 */
/** @type {Set<ProxiedStream>} */
const live = new Set();
let seq = 0;
let tick = 0;
let tokens = 0;
let lastRefillMs = performance.now();

function refill() {
  const nowMs = performance.now();
  tokens = Math.min(bucketBytes, tokens + ((nowMs - lastRefillMs) * rateBytesPerSecond) / 1000);
  lastRefillMs = nowMs;
}

function pump() {
  refill();
  tick++;
  while (tokens >= 1) {
    const stream = pickNext(live);
    if (!stream) break;
    const socket = stream.h2.session?.socket;
    // Do not let Node buffer ahead of the link either: the next decision must be made with fresh information.
    if (socket && socket.writableLength > 2 * quantumBytes) break;
    const size = Math.min(quantumBytes, Math.floor(tokens), stream.queuedBytes, bytesUntilChange(stream));
    const head = stream.queue[0];
    const piece = head.subarray(0, size);
    if (piece.length === head.length) stream.queue.shift();
    else stream.queue[0] = head.subarray(piece.length);
    stream.queuedBytes -= piece.length;
    stream.sentBytes += piece.length;
    stream.lastServed = tick;
    tokens -= piece.length;
    if (!stream.h2.destroyed) stream.h2.write(piece);
    finishIfDone(stream);
  }
}

/** @param {ProxiedStream} stream */
function finishIfDone(stream) {
  if (stream.upstreamEnded && stream.queuedBytes === 0 && live.has(stream)) {
    live.delete(stream);
    if (!stream.h2.destroyed) stream.h2.end();
  }
}

setInterval(pump, tickMs);

const server = http2.createSecureServer({
  cert: readFileSync(String(values.cert)),
  key: readFileSync(String(values.key)),
  allowHTTP1: false,
});

// A browser resetting a stream or closing the connection is normal; it must not take the server down.
server.on('sessionError', () => {});

server.on('stream', (h2, requestHeaders) => {
  h2.on('error', () => {});
  // Request order (the order the browser asked), not the order upstream answers arrive: exclusive streams of one
  // level are served in this order, and an upstream that answers a large image faster than a small stylesheet must
  // not put the image first.
  const requestSeq = seq++;
  const { method, path, headers } = upstreamRequest(requestHeaders, upstream.host);
  const request = requestUpstream(
    { host: upstream.hostname, port: upstream.port, path, method, headers },
    (response, retriedAfter) => {
      /** @type {import('node:http2').OutgoingHttpHeaders} */
      const responseHeaders = { ':status': response.statusCode ?? 502 };
      for (const [name, value] of Object.entries(response.headers)) {
        if (!hopByHop.has(name) && !priorityHeaders.has(name)) responseHeaders[name] = value;
      }
      if (retriedAfter) responseHeaders[labRetryHeader] = retriedAfter;
      if (h2.destroyed) return response.destroy();
      h2.respond(responseHeaders);
      const { base, changes } = priorityFor(mode, response.headers);
      /** @type {ProxiedStream} */
      const stream = {
        h2,
        seq: requestSeq,
        sentBytes: 0,
        queuedBytes: 0,
        queue: [],
        base,
        changes,
        lastServed: 0,
        upstreamEnded: false,
      };
      live.add(stream);
      response.on('data', (chunk) => {
        stream.queue.push(chunk);
        stream.queuedBytes += chunk.length;
      });
      response.on('end', () => {
        stream.upstreamEnded = true;
        finishIfDone(stream);
      });
      h2.on('close', () => {
        live.delete(stream);
        response.destroy();
      });
    },
    (reason) => {
      // Said on the answer, so the lab can tell its own failure from the site's 502.
      if (h2.destroyed) return;
      if (h2.headersSent) h2.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
      else h2.respond({ ':status': 502, [labErrorHeader]: reason }, { endStream: true });
    },
  );
  h2.pipe(request);
});

/**
 * Cleartext HTTP/1.1 (browsers speak HTTP/2 over TLS only): proxied as it comes, without the scheduler, with the same
 * headers stripped as on HTTP/2.
 * @param {import('node:http').IncomingMessage} incoming @param {import('node:http').ServerResponse} outgoing
 */
function proxyPlain(incoming, outgoing) {
  const headers = passOn(incoming.headers);
  headers.host = upstream.host;
  const method = String(incoming.method);
  const path = String(incoming.url);
  const request = requestUpstream(
    { host: upstream.hostname, port: upstream.port, path, method, headers },
    (response, retriedAfter) => {
      /** @type {import('node:http').OutgoingHttpHeaders} */
      const responseHeaders = {};
      for (const [name, value] of Object.entries(response.headers)) {
        if (!hopByHop.has(name) && !priorityHeaders.has(name)) responseHeaders[name] = value;
      }
      if (retriedAfter) responseHeaders[labRetryHeader] = retriedAfter;
      outgoing.writeHead(response.statusCode ?? 502, responseHeaders);
      response.pipe(outgoing);
    },
    (reason) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { [labErrorHeader]: reason });
      outgoing.end();
    },
  );
  incoming.pipe(request);
}

let listening = values['plain-port'] ? 2 : 1;
const ready = () => {
  if (--listening > 0) return;
  const plain = values['plain-port'] ? ` (cleartext HTTP/1.1 on ${values['plain-port']})` : '';
  process.stdout.write(`h2 lab server (${mode}) listening on ${values.host}:${values.port}${plain}\n`);
};
server.listen(Number(values.port), values.host, ready);
if (values['plain-port']) http.createServer(proxyPlain).listen(Number(values['plain-port']), values.host, ready);
