// Runs inside the lab's server namespace: every TCP connection to <port> is piped to the origin bridge's Unix socket
// (see origin-bridge.mjs), so the Workers and the direct variant reach the site under test. With --tls-port, TLS
// connections there are decrypted and piped the same way (HTTP/1.1): the direct variant's entrance for a page's own
// https:// URLs.
//   node relay.mjs --port 8814 --socket /tmp/…/origin.sock [--host 0.0.0.0] [--tls-port 8813 --cert c.pem --key k.pem]
import { readFileSync } from 'node:fs';
import net from 'node:net';
import tls from 'node:tls';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    socket: { type: 'string' },
    host: { type: 'string', default: '127.0.0.1' },
    'tls-port': { type: 'string' },
    cert: { type: 'string' },
    key: { type: 'string' },
  },
});

/** @param {import('node:stream').Duplex} incoming */
function pipeToBridge(incoming) {
  const outgoing = net.connect(String(values.socket));
  incoming.pipe(outgoing).pipe(incoming);
  const close = () => {
    incoming.destroy();
    outgoing.destroy();
  };
  incoming.on('error', close);
  outgoing.on('error', close);
}

net
  .createServer(pipeToBridge)
  .listen(Number(values.port), values.host, () => process.stdout.write(`relay on ${values.host}:${values.port}\n`));
if (values['tls-port']) {
  const options = { cert: readFileSync(String(values.cert)), key: readFileSync(String(values.key)) };
  tls
    .createServer(options, pipeToBridge)
    // A client that gives up during the handshake must not take the relay down.
    .on('tlsClientError', () => {})
    .listen(Number(values['tls-port']), values.host, () =>
      process.stdout.write(`relay (TLS) on ${values.host}:${values['tls-port']}\n`),
    );
}
