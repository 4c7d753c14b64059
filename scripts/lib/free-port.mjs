// A TCP port free on 127.0.0.1 right now, for tests that start servers of their own (two checkouts may run their
// tests at once, so nothing takes a fixed port). Another process could take it before the caller listens: callers
// start their server at once.
import net from 'node:net';

/** @returns {Promise<number>} */
export async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', () => resolve(undefined)));
  const { port } = /** @type {net.AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(() => resolve(undefined)));
  return port;
}
