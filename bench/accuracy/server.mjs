// The server side of the testbed: `wrangler dev` (the real Worker, static assets included) inside the server
// namespace, listening on the veth address. Delay, jitter and loss are the link's (tools/link-emulator, applied to
// packets), so nothing sits between the browser's TCP connection and wrangler dev.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { symmetricConditions } from '../lib/link-conditions.mjs';

const wranglerPort = 8900;

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
 * Starts the Worker; resolves once `/meta` answers over the link from the client namespace.
 * @param {Link} link
 */
export async function startServer(link) {
  const snapshotDir = snapshotWorker();
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

  const stop = async () => {
    if (wrangler.pid !== undefined && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    rmSync(snapshotDir, { recursive: true, force: true });
  };
  // The snapshot must go on every exit path, also when the process is interrupted (the link's own handlers then
  // kill wrangler with the namespaces).
  const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });
  process.once('exit', removeSnapshot);
  const origin = `http://${link.serverIp}:${wranglerPort}`;
  // Bounded wait for wrangler's first build and workerd start: at most 90 s and 300 tries.
  const deadlineMs = Date.now() + 90_000;
  for (let attempt = 0; ; attempt++) {
    const probe = await link.exec(link.clientNs, 'curl', ['-sf', '-m', '2', '-o', '/dev/null', `${origin}/meta`], {
      timeoutMs: 5_000,
    });
    if (probe.code === 0) break;
    if (attempt >= 300 || Date.now() > deadlineMs || wrangler.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev did not answer over the link within 90 s; its output:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
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
