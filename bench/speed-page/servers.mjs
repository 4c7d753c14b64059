// The server side of the lab, inside the link's server namespace: the relay to the site (origin-bridge.mjs), one
// `wrangler dev --env <capability>` per Worker hop with its origin set to the next hop, and one HTTP/2 front per
// Worker variant (bench/priority/lab/h2-server.mjs in `cf` mode: it honours the priority Worker's headers).
import { join } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { killGroup } from '../lib/netns-process.mjs';
import { selfSignedCert } from '../lib/self-signed-cert.mjs';
import { h2FrontArgs } from '../priority/lab/h2-front.mjs';

/** Ports inside the server namespace (private to it; the demo origin on the host takes any free port). */
export const ports = { relay: 8814, firstWorker: 8815, firstFront: 8822, firstInspector: 9300 };

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
      ['-s', '-m', '3', '-o', '/dev/null', '-w', '%{http_code}', url],
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

/**
 * Starts the relay and every Worker hop, and resolves with each Worker variant's first-hop port once all answer.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {string} work scratch dir @param {string} socketPath origin bridge socket
 * @param {import('./variants.mjs').Variant[]} variants
 * @param {(line: string) => void} say
 */
export async function startWorkers(link, work, socketPath, variants, say) {
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
  ]);
  const relayLog = tail(relay);
  await waitForHttp(link, `http://127.0.0.1:${ports.relay}/`, 'the relay to the site', relayLog, relay);
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
        'warn',
        ...Object.entries(vars).flatMap(([name, value]) => ['--var', `${name}:${value}`]),
      ];
      const wrangler = link.spawn(link.serverNs, join(repoRoot, 'node_modules/.bin/wrangler'), args, {
        cwd: repoRoot,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const what = `wrangler dev --env ${hop.env} (${variant.label}, port ${port})`;
      waits.push(waitForHttp(link, `http://127.0.0.1:${port}/`, what, tail(wrangler), wrangler));
    }
  }
  if (waits.length > 0) say(`starting ${waits.length} Worker(s) with wrangler dev (workerd) …`);
  await Promise.all(waits);
  return entryPort;
}

/**
 * Starts one HTTP/2 front per Worker variant, paced just under the profile's downlink (as in the priority lab).
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {string} work @param {Map<string, number>} entryPort
 * @param {number} downMbit @returns {Promise<{ portOf: Map<string, number>, stop: () => void }>}
 */
export async function startFronts(link, work, entryPort, downMbit) {
  const { cert, key } = selfSignedCert(work, 'speedkit-speed-page');
  const paceBytesPerSecond = Math.round(((downMbit * 1e6) / 8) * 0.92);
  const portOf = new Map();
  /** @type {import('node:child_process').ChildProcess[]} */
  const children = [];
  let index = 0;
  for (const [id, workerPort] of entryPort) {
    const port = ports.firstFront + index++;
    const upstream = `http://127.0.0.1:${workerPort}`;
    const args = h2FrontArgs({ port, upstream, mode: 'cf', paceBytesPerSecond, cert, key });
    const child = link.spawn(link.serverNs, process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = tail(child);
    portOf.set(id, port);
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
  return { portOf, stop };
}
