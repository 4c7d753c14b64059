// The server side of the testbed: `wrangler dev` (the real Worker, static assets included) inside the server
// namespace, fronted by toxiproxy on the veth address so every browser request crosses the delay toxics.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { startToxiproxy } from '../lib/toxiproxy.mjs';

const wranglerPort = 8805;
const proxyPort = 8900;

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * Starts the Worker and the proxy; resolves once `/meta` answers through the proxy from the client namespace.
 * @param {Link} link
 */
export async function startServer(link) {
  const stateDir = mkdtempSync(join(tmpdir(), 'speedkit-accuracy-state-'));
  const wrangler = link.spawn(
    link.serverNs,
    join(repoRoot, 'node_modules', '.bin', 'wrangler'),
    ['dev', '--ip', '127.0.0.1', '--port', String(wranglerPort), '--persist-to', stateDir, '--log-level', 'warn'],
    { cwd: repoRoot, env: toolEnv(), stdio: ['ignore', 'pipe', 'pipe'] },
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
      wrangler.kill('SIGTERM');
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}
