// The server side of the testbed: `wrangler dev` (the real Worker, static assets included) inside the server
// namespace, fronted by toxiproxy on the veth address so every browser request crosses the delay toxics.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { startToxiproxy } from '../lib/toxiproxy.mjs';

const wranglerPort = 8805;
const proxyPort = 8900;

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
 * Starts the Worker and the proxy; resolves once `/meta` answers through the proxy from the client namespace.
 * @param {Link} link
 */
export async function startServer(link) {
  const snapshotDir = snapshotWorker();
  const wrangler = link.spawn(
    link.serverNs,
    join(repoRoot, 'node_modules', '.bin', 'wrangler'),
    ['dev', '--ip', '127.0.0.1', '--port', String(wranglerPort), '--log-level', 'warn'],
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
  // kill wrangler and toxiproxy with the namespaces).
  const removeSnapshot = () => rmSync(snapshotDir, { recursive: true, force: true });
  process.once('exit', removeSnapshot);
  const proxy = await startToxiproxy(link, {
    ns: link.serverNs,
    listenPort: proxyPort,
    upstreamPort: wranglerPort,
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  const origin = `http://${link.serverIp}:${proxyPort}`;
  // Bounded wait for wrangler's first build and workerd start: at most 90 s and 300 tries.
  const deadlineMs = Date.now() + 90_000;
  for (let attempt = 0; ; attempt++) {
    const probe = await link.exec(link.clientNs, 'curl', ['-sf', '-m', '2', '-o', '/dev/null', `${origin}/meta`], {
      timeoutMs: 5_000,
    });
    if (probe.code === 0) break;
    if (attempt >= 300 || Date.now() > deadlineMs || wrangler.exitCode !== null) {
      await stop();
      throw new Error(`wrangler dev did not answer through the proxy within 90 s; its output:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    setDelay: proxy.setDelay,
    /** Last lines wrangler printed, for error reports. */
    log: () => log,
    stop,
  };
}
