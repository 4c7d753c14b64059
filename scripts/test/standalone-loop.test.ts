import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../lib/free-port.mjs';
import { repoRoot, toolEnv } from '../lib/tools.mjs';

// A capability deployed alone fetches its origin with `fetch(request)`. Under `wrangler dev` without
// `--local-upstream` (and on workers.dev) nothing stands behind the Worker's own address, so that fetch came back to
// the Worker: one request became thousands. Each env runs here as a user would start it, in real workerd.
const work = mkdtempSync(join(tmpdir(), 'standalone-loop-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGTERM');
  rmSync(work, { recursive: true, force: true });
});

/** `wrangler dev --env <env>` with no origin, answering on a free port; resolves with its address and its log. */
async function startAlone(env: string) {
  const port = await freePort();
  const inspector = await freePort();
  const args = [
    'dev',
    '--env',
    env,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(inspector),
  ];
  const child = spawn(join(repoRoot, 'node_modules/.bin/wrangler'), [...args, '--persist-to', join(work, env)], {
    cwd: repoRoot,
    env: toolEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let log = '';
  child.stdout?.on('data', (chunk) => {
    log += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    log += chunk;
  });
  const deadlineMs = Date.now() + 90_000;
  while (!/Ready on/.test(log)) {
    if (child.exitCode !== null || Date.now() > deadlineMs) throw new Error(`wrangler dev --env ${env}:\n${log}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { url: `http://127.0.0.1:${port}`, log: () => log };
}

describe('a capability deployed alone with no origin behind it', () => {
  it.each(['priority', 'speedtest', 'binast', 'images'])(
    '[env.%s] answers 508 saying what to do, after one hop',
    async (env) => {
      const worker = await startAlone(env);
      const response = await fetch(`${worker.url}/index.html`, { signal: AbortSignal.timeout(20_000) });
      expect(response.status).toBe(508);
      const body = (await response.json()) as { error: string; detail: { hops: string[]; fix: string } };
      expect(body.error).toContain(`the ${env} Worker received its own request back`);
      expect(body.detail.hops).toEqual([env]);
      expect(body.detail.fix).toContain('--local-upstream');
      if (env === 'images') expect(body.detail.fix).toContain('IMAGES_ORIGIN');
    },
    120_000,
  );
});
