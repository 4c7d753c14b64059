// The server side of the lab, all inside the link's server namespace: a plain origin, the priority Worker deployed
// alone in front of it (`wrangler dev --env priority --local-upstream`), and one HTTP/2 scheduling server per mode.
import { cpSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { toolEnv } from '../../../scripts/lib/tools.mjs';
import { selfSignedCert } from '../../lib/self-signed-cert.mjs';
import { h2FrontArgs } from './h2-front.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const wranglerPort = 8803;
const originPort = 8900;

/**
 * A copy of the tree (demo page and images included, caches left out), so concurrent edits by other engineers do not
 * reload the Worker mid-run; node_modules is linked.
 * @param {string} dir
 */
function snapshotTree(dir) {
  const skip = new Set(['node_modules', '.git', 'target', '.wrangler', 'reports', 'results', '.tools']);
  cpSync(repoRoot, dir, { recursive: true, filter: (source) => !skip.has(source.slice(source.lastIndexOf('/') + 1)) });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
}

/**
 * Polls `check` every 500 ms until it answers true; throws after `timeoutMs`.
 * @param {() => Promise<boolean>} check @param {string} what
 */
async function waitFor(check, what, timeoutMs = 90_000) {
  const deadlineMs = Date.now() + timeoutMs;
  while (Date.now() < deadlineMs) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

/**
 * Starts everything and resolves once the Worker answers; the processes die with `link.destroy()`.
 * @param {import('../../lib/shaped-link.mjs').ShapedLink} link @param {string} work scratch directory
 * @param {{ modes: readonly string[], firstPort: number, paceBytesPerSecond: number }} options
 */
export async function startServers(link, work, { modes, firstPort, paceBytesPerSecond }) {
  const { cert, key } = selfSignedCert(work, 'speedkit-lab');
  const tree = join(work, 'tree');
  snapshotTree(tree);
  const env = toolEnv();
  const node = (/** @type {string} */ script, /** @type {string[]} */ args) =>
    link.spawn(link.serverNs, process.execPath, [join(repoRoot, 'bench/priority/lab', script), ...args], {
      env,
      stdio: 'ignore',
    });
  node('origin.mjs', ['--port', String(originPort), '--root', join(tree, 'apps/speedtest/public')]);
  const wranglerArgs = [
    'dev',
    '--env',
    'priority',
    '--ip',
    '127.0.0.1',
    '--port',
    String(wranglerPort),
    '--local-upstream',
    `127.0.0.1:${originPort}`,
    '--upstream-protocol',
    'http',
    '--persist-to',
    join(work, 'state'),
    '--log-level',
    'warn',
  ];
  const wrangler = link.spawn(link.serverNs, join(repoRoot, 'node_modules/.bin/wrangler'), wranglerArgs, {
    cwd: tree,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let wranglerLog = '';
  const keep = (/** @type {Buffer} */ chunk) => {
    wranglerLog = (wranglerLog + chunk.toString()).slice(-4000);
  };
  wrangler.stdout?.on('data', keep);
  wrangler.stderr?.on('data', keep);
  for (const [index, mode] of modes.entries()) {
    const upstream = `http://127.0.0.1:${wranglerPort}`;
    const args = h2FrontArgs({ port: firstPort + index, upstream, mode, paceBytesPerSecond, cert, key });
    link.spawn(link.serverNs, process.execPath, args, { env, stdio: 'ignore' });
  }
  const probeUrl = `http://127.0.0.1:${wranglerPort}/demo/priority/astronaut.jpg`;
  await waitFor(async () => {
    if (wrangler.exitCode !== null || wranglerLog.includes('Build failed')) {
      throw new Error(`wrangler dev failed:\n${wranglerLog}`);
    }
    const probe = await link.exec(
      link.serverNs,
      'curl',
      ['-s', '-m', '3', '-o', '/dev/null', '-w', '%{http_code}', probeUrl],
      { timeoutMs: 5000 },
    );
    return probe.output.trim() === '200';
  }, 'wrangler dev');
}
