// Starts `wrangler dev` for a benchmark on its own port and stops it (the whole process group) afterwards.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';

/**
 * @param {number} port
 * @param {string[]} [extraArgs] more `wrangler dev` arguments, e.g. `['--var', 'NAME:value']`
 * @returns {Promise<{ origin: string, stop: () => Promise<void>, log: () => string }>}
 */
export async function startServer(port, extraArgs = []) {
  const state = mkdtempSync(join(tmpdir(), 'speedkit-bench-'));
  const args = ['dev', '--port', String(port), '--ip', '127.0.0.1', '--persist-to', state, ...extraArgs];
  const child = spawn('wrangler', args, {
    cwd: repoRoot,
    env: toolEnv(),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let stderr = '';
  // The tail of wrangler's output, shown when a run fails (e.g. "Reloading local server" after a file changed).
  child.stderr.on('data', (chunk) => {
    stderr = `${stderr}${chunk}`.slice(-4000);
  });
  const origin = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // Already gone.
      }
      await new Promise((resolve) => {
        child.once('close', resolve);
        setTimeout(resolve, 5000);
      });
    }
    rmSync(state, { recursive: true, force: true });
  };
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited early:\n${stderr}`);
    try {
      if ((await fetch(`${origin}/meta`)).ok) return { origin, stop, log: () => stderr };
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await stop();
  throw new Error(`wrangler dev did not answer on ${origin} within 90 s:\n${stderr}`);
}
