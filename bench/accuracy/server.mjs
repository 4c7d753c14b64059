// The server side of the testbed: `wrangler dev` (the real Worker, static assets included) inside the server
// namespace, fronted by toxiproxy on the veth address so every browser request crosses the delay toxics.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { startToxiproxy } from '../lib/toxiproxy.mjs';

const wranglerPort = 8805;
const proxyPort = 8900;

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * Copies what `wrangler dev` serves (config, Worker source, Wasm package, built SPA) into a temporary directory, with
 * node_modules linked: several engineers edit this tree concurrently, and wrangler dev reloads on every change
 * (answering 503 meanwhile), which would turn their edits into measurement errors.
 * @returns {string} the snapshot directory
 */
function snapshotWorker() {
  const dir = mkdtempSync(join(tmpdir(), 'speedkit-accuracy-worker-'));
  for (const path of ['wrangler.toml', 'package.json', 'workers/src', 'wasm/binast/pkg', 'apps/speedtest/dist']) {
    cpSync(join(repoRoot, path), join(dir, path), { recursive: true });
  }
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

  const proxy = await startToxiproxy(link, { ns: link.serverNs, listenPort: proxyPort, upstreamPort: wranglerPort });
  const origin = `http://${link.serverIp}:${proxyPort}`;
  // Bounded wait for wrangler's first build and workerd start: 240 tries, 250 ms apart (60 s).
  for (let attempt = 0; ; attempt++) {
    const probe = await link.exec(link.clientNs, 'curl', ['-sf', '-m', '2', '-o', '/dev/null', `${origin}/meta`], {
      timeoutMs: 5_000,
    });
    if (probe.code === 0) break;
    if (attempt >= 240 || wrangler.exitCode !== null) {
      throw new Error(`wrangler dev did not answer through the proxy within 60 s; its output:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    origin,
    setDelay: proxy.setDelay,
    /** Last lines wrangler printed, for error reports. */
    log: () => log,
    stop: async () => {
      await proxy.stop();
      if (wrangler.pid !== undefined && wrangler.exitCode === null) process.kill(-wrangler.pid, 'SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 500));
      rmSync(snapshotDir, { recursive: true, force: true });
    },
  };
}
