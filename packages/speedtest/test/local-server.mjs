// A real HTTP server on 127.0.0.1 for the engine's network tests, in plain JavaScript so the package's TypeScript
// stays free of Node's types (the engine is browser code; local-server.d.mts types what the tests use).
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';

/** Answers `/__down?bytes=N` with N bytes and `/__up` with a receipt, like the Worker; `behave` can take a request over. */
export function startLocalServer(behave) {
  const sockets = new Set();
  const server = createServer((request, response) => {
    response.setHeader('access-control-allow-origin', '*');
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (behave?.(url, response, request) === 'handled') return;
    if (url.pathname === '/__down') return sendBytes(response, Number(url.searchParams.get('bytes')));
    if (url.pathname === '/__up') {
      let received = 0;
      request.on('data', (chunk) => {
        received += chunk.length;
      });
      request.on('end', () => response.end(JSON.stringify({ receivedBytes: received })));
      return;
    }
    response.statusCode = 404;
    response.end('{"error":"not found"}');
  });
  // Requests the server holds open must not keep close() waiting.
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

function sendBytes(response, bytes) {
  response.setHeader('content-length', bytes);
  const chunk = Buffer.alloc(64 * 1024);
  let left = bytes;
  const pump = () => {
    while (left > 0) {
      const size = Math.min(left, chunk.length);
      left -= size;
      if (!response.write(chunk.subarray(0, size))) return void response.once('drain', pump);
    }
    response.end();
  };
  pump();
}

/**
 * Answers with `bytes` zeros at a steady pace: `chunkBytes` every `everyMs` (a link of that rate, as steady as
 * Node's timers are), stopping when the client goes away.
 */
export function sendPaced(response, bytes, chunkBytes, everyMs) {
  response.setHeader('content-length', bytes);
  const chunk = Buffer.alloc(chunkBytes);
  let left = bytes;
  const timer = setInterval(() => {
    const size = Math.min(left, chunkBytes);
    left -= size;
    response.write(chunk.subarray(0, size));
    if (left > 0) return;
    clearInterval(timer);
    response.end();
  }, everyMs);
  response.on('close', () => clearInterval(timer));
}

/**
 * Answers with `bytes` zeros gzip-compressed (`Content-Encoding: gzip`), as a proxy or CDN rule that compresses every
 * type sends the download on.
 */
export function sendGzippedZeros(response, bytes) {
  const body = gzipSync(Buffer.alloc(bytes));
  response.setHeader('content-encoding', 'gzip');
  response.setHeader('content-length', body.length);
  response.end(body);
}
