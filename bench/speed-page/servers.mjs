// The server side of the lab, inside the link's server namespace: the relay to the site (origin-bridge.mjs), one
// `wrangler dev --env <capability>` per Worker hop with its origin set to the next hop, and one HTTP/2 front per
// Worker variant (bench/priority/lab/h2-server.mjs in `cf` mode: it honours the priority Worker's headers).
// The ports each variant is reached on are in addressing.mjs.
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { killGroup } from '../lib/netns-process.mjs';
import { selfSignedCert } from '../lib/self-signed-cert.mjs';
import { h2FrontArgs } from '../priority/lab/h2-front.mjs';
import { ports } from './addressing.mjs';

/**
 * @typedef {import('./addressing.mjs').Entrance} Entrance
 * @typedef {{ cert: string, key: string }} CertFiles
 */

const startupTimeoutMs = 180_000;

/**
 * Polls `url` from inside the namespace until it answers any HTTP status, or throws with `log()` on timeout/exit.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {string} url @param {string} what @param {() => string} log
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitForHttp(link, url, what, log, child) {
  const deadlineMs = Date.now() + startupTimeoutMs;
  while (Date.now() < deadlineMs) {
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${log()}`);
    const probe = await link.exec(
      link.serverNs,
      'curl',
      // -k: the TLS entrances have the lab's self-signed certificate.
      ['-s', '-k', '-m', '3', '-o', '/dev/null', '-w', '%{http_code}', url],
      {
        timeoutMs: 5000,
      },
    );
    if (/^[1-5]\d\d$/.test(probe.output.trim())) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error(`${what} did not answer within ${startupTimeoutMs / 1000} s:\n${log()}`);
}

/** Keeps the last few KB a child prints, for error messages. @param {import('node:child_process').ChildProcess} child */
function tail(child) {
  let text = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    text = (text + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => text;
}

// `SPEED_PAGE_LOGS=<dir>` keeps every Worker's (wrangler dev, workerd) and front's whole output there, at wrangler's
// `log` level (the Workers' console.log included): without it only the last 4 KB are kept, for startup errors, and a
// request the Worker dropped mid-run left no trace.
const logDir = process.env.SPEED_PAGE_LOGS;

/** Copies all a child prints to `<SPEED_PAGE_LOGS>/<name>.log`, when set. @param {import('node:child_process').ChildProcess} child @param {string} name */
function keepLog(child, name) {
  if (!logDir) return;
  mkdirSync(logDir, { recursive: true });
  const file = createWriteStream(join(logDir, `${name}.log`), { flags: 'a' });
  const stamp = (/** @type {Buffer} */ chunk) => file.write(`[${new Date().toISOString()}] ${chunk}`);
  child.stdout?.on('data', stamp);
  child.stderr?.on('data', stamp);
}

/**
 * Starts the relay and every Worker hop, and resolves with each Worker variant's first-hop port once all answer.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {string} work scratch dir @param {string} socketPath origin bridge socket
 * @param {import('./variants.mjs').Variant[]} variants
 * @param {CertFiles} cert for the relay's TLS entrance
 * @param {(line: string) => void} say
 */
export async function startWorkers(link, work, socketPath, variants, cert, say) {
  const env = { ...toolEnv(), WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false' };
  const relay = link.spawn(link.serverNs, process.execPath, [
    join(repoRoot, 'bench/speed-page/relay.mjs'),
    '--port',
    String(ports.relay),
    '--socket',
    socketPath,
    // Namespace-wide: Chromium in the client namespace reaches it across the emulated link.
    '--host',
    '0.0.0.0',
    ...['--tls-port', String(ports.relayTls), '--cert', cert.cert, '--key', cert.key],
  ]);
  const relayLog = tail(relay);
  await waitForHttp(link, `http://127.0.0.1:${ports.relay}/`, 'the relay to the site', relayLog, relay);
  await waitForHttp(link, `https://127.0.0.1:${ports.relayTls}/`, 'the relay (TLS)', relayLog, relay);
  /** @type {Map<string, number>} */
  const entryPort = new Map();
  const waits = [];
  let next = 0;
  for (const variant of variants) {
    if (variant.hops.length === 0) continue;
    const hopPorts = variant.hops.map(() => ports.firstWorker + next++);
    entryPort.set(variant.id, hopPorts[0]);
    for (const [index, hop] of variant.hops.entries()) {
      const port = hopPorts[index];
      const upstreamPort = hopPorts[index + 1] ?? ports.relay;
      const vars = {
        ...hop.vars,
        ...(hop.env === 'images' ? { IMAGES_ORIGIN: `http://127.0.0.1:${upstreamPort}` } : {}),
      };
      const args = [
        'dev',
        '--env',
        hop.env,
        '--ip',
        '127.0.0.1',
        '--port',
        String(port),
        '--inspector-port',
        String(ports.firstInspector + port - ports.firstWorker),
        '--local-upstream',
        `127.0.0.1:${upstreamPort}`,
        '--upstream-protocol',
        'http',
        '--persist-to',
        join(work, `state-${port}`),
        '--log-level',
        logDir ? 'log' : 'warn',
        ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
      ];
      const wrangler = link.spawn(link.serverNs, join(repoRoot, 'node_modules/.bin/wrangler'), args, {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      keepLog(wrangler, `wrangler-${hop.env}-${port}`);
      const what = `wrangler dev --env ${hop.env} (${variant.label}, port ${port})`;
      waits.push(waitForHttp(link, `http://127.0.0.1:${port}/`, what, tail(wrangler), wrangler));
    }
  }
  if (waits.length > 0) say(`starting ${waits.length} Worker(s) with wrangler dev (workerd) …`);
  await Promise.all(waits);
  return entryPort;
}

/**
 * The server namespace's door to the outside proxy (outside-proxy.mjs, on `socketPath` in the lab's namespace): a relay
 * on the proxy's port, reachable across the link.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {string} socketPath
 */
export async function startOutsideRelay(link, socketPath) {
  const args = ['--port', String(ports.outsideProxy), '--socket', socketPath, '--host', '0.0.0.0'];
  const relay = link.spawn(link.serverNs, process.execPath, [join(repoRoot, 'bench/speed-page/relay.mjs'), ...args]);
  // The proxy answers a plain GET of a path with 400: any status means it is there.
  await waitForHttp(
    link,
    `http://127.0.0.1:${ports.outsideProxy}/`,
    'the relay to the outside proxy',
    tail(relay),
    relay,
  );
}

/** The lab's throwaway certificate for its TLS entrances. @param {string} work */
export const labCert = (work) => selfSignedCert(work, 'speedkit-speed-page');

/**
 * Starts one HTTP/2 front per Worker variant, paced just under the profile's downlink (as in the priority lab), on
 * that variant's entrances.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {Map<string, number>} entryPort
 * @param {Map<string, Entrance>} entrances @param {CertFiles} cert
 * @param {number} downMbit @returns {Promise<{ stop: () => void }>}
 */
export async function startFronts(link, entryPort, entrances, { cert, key }, downMbit) {
  const paceBytesPerSecond = Math.round(((downMbit * 1e6) / 8) * 0.92);
  /** @type {import('node:child_process').ChildProcess[]} */
  const children = [];
  for (const [id, workerPort] of entryPort) {
    const { tls: port, plain: plainPort } = /** @type {Entrance} */ (entrances.get(id));
    const upstream = `http://127.0.0.1:${workerPort}`;
    const args = h2FrontArgs({ port, upstream, mode: 'cf', paceBytesPerSecond, cert, key, plainPort });
    const child = link.spawn(link.serverNs, process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = tail(child);
    keepLog(child, `front-${port}`);
    children.push(child);
    const deadlineMs = Date.now() + 20_000;
    while (!log().includes('listening')) {
      if (child.exitCode !== null || Date.now() > deadlineMs) throw new Error(`HTTP/2 front did not start:\n${log()}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const stop = () => {
    for (const child of children) killGroup(child, 'SIGTERM');
  };
  return { stop };
}
