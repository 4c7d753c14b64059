// How to start the HTTP/2 front (h2-server.mjs): the node arguments both labs spawn it with, in one place.
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./h2-server.mjs', import.meta.url));

/**
 * Arguments for `node` that start the front on `port` (all addresses) in front of `upstream`, scheduling by `mode` (a scheduler.mjs Mode)
 * and pacing its output at `paceBytesPerSecond`, with TLS from `cert` and `key` (PEM file paths); with `plainPort`, also
 * cleartext HTTP/1.1 there (unscheduled).
 * @param {{ port: number, upstream: string, mode: string, paceBytesPerSecond: number,
 *   cert: string, key: string, plainPort?: number }} options
 */
export function h2FrontArgs({ port, upstream, mode, paceBytesPerSecond, cert, key, plainPort }) {
  return [
    script,
    ...['--port', String(port), '--upstream', upstream, '--mode', mode],
    ...['--rate', String(paceBytesPerSecond), '--cert', cert, '--key', key],
    ...(plainPort ? ['--plain-port', String(plainPort)] : []),
  ];
}
