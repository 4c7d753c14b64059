// The server side of the testbed: `wrangler dev` (the real Worker, static assets included) inside the server
// namespace, listening on the veth address. Delay, jitter and loss are the link's (tools/link-emulator, applied to
// packets), so nothing sits between the browser's TCP connection and wrangler dev. With `front: 'h2'` a plain
// HTTP/2 TLS proxy (h2-front.mjs) in the same namespace takes the browser's connection instead, as Cloudflare's edge
// would: the shaped link then carries HTTP/2, and the hop to wrangler dev (HTTP/1.1 only) stays local.
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { turnserverBinary, writeTurnDevVars } from '../../scripts/lib/turn.mjs';
import { startLabTurnServer } from '../lib/lab-turn.mjs';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { selfSignedCert } from '../lib/self-signed-cert.mjs';

const wranglerPort = 8900;
const h2FrontPort = 8943;
const h2FrontScript = fileURLToPath(new URL('./h2-front.mjs', import.meta.url));

/** How the browser reaches the Worker: `h1` wrangler dev itself (HTTP/1.1), `h2` through the HTTP/2 front. */
/** @typedef {'h1' | 'h2'} Front */

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * Copies the built tree `wrangler dev` serves into a temporary directory, with node_modules linked: several engineers edit this tree concurrently, and wrangler dev reloads on every change
 * (answering 503 meanwhile), which would turn their edits into measurement errors.
 * @returns {string} the snapshot directory
 */
function snapshotWorker() {
  const dir = mkdtempSync(join(tmpdir(), 'speedkit-accuracy-worker-'));
  // Everything the Worker may import (its imports reach into wasm/, packages/...), minus caches and outputs (~30 MB).
  const skipped = new Set(['node_modules', '.git', 'target', '.wrangler', 'reports', '.tools', 'test-results']);
  const topLevel = (/** @type {string} */ source) => relative(repoRoot, source).split(sep)[0];
  cpSync(repoRoot, dir, { recursive: true, filter: (source) => !skipped.has(topLevel(source)) });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

/**
 * Starts the Worker (and with `front: 'h2'` the HTTP/2 front); resolves once `/meta` answers over the link from the
 * client namespace at the origin the engines get. With `turn` (and coturn installed) a TURN relay runs in the server
 * namespace too and the Worker hands out its credentials, so our engine's loss phase measures the link's loss, as it
 * does on a deployment with TURN; `turnNote` says whether it runs.
 * @param {Link} link
 * @param {{ front?: Front, turn?: boolean }} [options]
 */
export async function startServer(link, { front = 'h1', turn = false } = {}) {
  const snapshotDir = snapshotWorker();
  const relay = turn && existsSync(turnserverBinary) ? await startLabTurnServer(link) : null;
  // The snapshot's own .dev.vars: the relay's, or none (a copied one from `npm start` names a relay not running here).
  writeTurnDevVars(relay, snapshotDir);
  const turnNote = relay
    ? `a TURN relay at ${relay.urls[0]}: our engine measures loss each way`
    : turn
      ? `no TURN relay (${turnserverBinary} is missing): our engine measures no loss`
      : 'no TURN relay (--no-turn): our engine measures no loss';
  const wrangler = link.spawn(
    link.serverNs,
    join(repoRoot, 'node_modules', '.bin', 'wrangler'),
    ['dev', '--ip', link.serverIp, '--port', String(wranglerPort), '--log-level', 'warn'],
    { cwd: snapshotDir, env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    log = (log + chunk.toString()).slice(-4000);
  };
  wrangler.stdout?.on('data', keep);
  wrangler.stderr?.on('data', keep);
  const upstream = `http://${link.serverIp}:${wranglerPort}`;
  // The certificate lives in the snapshot directory, so it goes with it; the browser contexts ignore its errors.
  const frontProcess =
    front === 'h2'
      ? (() => {
          const { cert, key } = selfSignedCert(snapshotDir, 'speedkit-accuracy');
          const args = [h2FrontScript, '--host', link.serverIp, '--port', String(h2FrontPort), '--upstream', upstream];
          return link.spawn(link.serverNs, process.execPath, [...args, '--cert', cert, '--key', key], {
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        })()
      : undefined;
  frontProcess?.stdout?.on('data', keep);
  frontProcess?.stderr?.on('data', keep);

  const stop = async () => {
    if (frontProcess?.pid !== undefined && frontProcess.exitCode === null) process.kill(-frontProcess.pid, 'SIGTERM');
    if (wrangler.pid !== undefined && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM');
    await relay?.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(snapshotDir, { recursive: true, force: true });
  };
  // The snapshot must go on every exit path, also when the process is interrupted (the link's own handlers then
  // kill wrangler with the namespaces).
  const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });
  process.once('exit', removeSnapshot);
  const origin = front === 'h2' ? `https://${link.serverIp}:${h2FrontPort}` : upstream;
  // Over the front, the probe must arrive as HTTP/2 (curl negotiates it by ALPN; the certificate is self-signed).
  const probeArgs = front === 'h2' ? ['-k', '--http2'] : [];
  // Bounded wait for wrangler's first build and workerd start: at most 90 s and 300 tries.
  const deadlineMs = Date.now() + 90_000;
  for (let attempt = 0; ; attempt++) {
    const probe = await link.exec(
      link.clientNs,
      'curl',
      [...probeArgs, '-sf', '-m', '2', '-o', '/dev/null', `${origin}/meta`],
      { timeoutMs: 5_000 },
    );
    if (probe.code === 0) break;
    const exited = wrangler.exitCode !== null || (frontProcess !== undefined && frontProcess.exitCode !== null);
    if (attempt >= 300 || Date.now() > deadlineMs || exited) {
      await stop();
      throw new Error(`the Worker did not answer over the link at ${origin} within 90 s; the output:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    front,
    turnNote,
    /** Whether our engine's loss phase has a relay. */
    turn: relay !== null,
    /** The front's process, for its CPU time (`--front h2`). */
    frontPid: frontProcess?.pid,
    /**
     * The link's conditions for a profile: half the RTT each way (jitter on the downstream half), loss each way.
     * @param {{ rttMs: number, jitterMs?: number, lossPercent?: number }} profile
     */
    setDelay: (profile) => link.setConditions(symmetricConditions(profile)),
    /** Last lines wrangler printed, for error reports. */
    log: () => log,
    stop,
  };
}
