// Runs inside the lab's server namespace: every TCP connection to 127.0.0.1:<port> is piped to the origin bridge's
// Unix socket (see origin-bridge.mjs), so the Workers and the direct variant reach the site under test.
//   node relay.mjs --port 8814 --socket /tmp/…/origin.sock [--host 0.0.0.0]
import net from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { port: { type: 'string' }, socket: { type: 'string' }, host: { type: 'string', default: '127.0.0.1' } },
});
net
  .createServer((incoming) => {
    const outgoing = net.connect(String(values.socket));
    incoming.pipe(outgoing).pipe(incoming);
    const close = () => {
      incoming.destroy();
      outgoing.destroy();
    };
    incoming.on('error', close);
    outgoing.on('error', close);
  })
  .listen(Number(values.port), values.host, () => process.stdout.write(`relay on ${values.host}:${values.port}\n`));
