// Process and namespace helpers of shaped-link.mjs: running commands with bounded time, and synchronous cleanup that
// also works inside a process 'exit' handler (where nothing asynchronous runs).
import { execFile, execFileSync } from 'node:child_process';

const execTimeoutMs = 10 * 60_000;

/**
 * Runs a command to completion and resolves with its exit code and merged output; never rejects on exit codes.
 * @param {string} cmd
 * @param {string[]} args
 * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, cwd?: string }} [opts]
 * @returns {Promise<{ code: number, output: string }>}
 */
export function run(cmd, args, opts = {}) {
  return new Promise((resolve) => {
    const options = { timeout: opts.timeoutMs ?? execTimeoutMs, env: opts.env, cwd: opts.cwd, maxBuffer: 64 << 20 };
    execFile(cmd, args, options, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}${error && code === 1 && !stderr ? error.message : ''}` });
    });
  });
}

/** Sync variant for cleanup inside process 'exit' handlers, where nothing async runs. */
export function runSync(/** @type {string} */ cmd, /** @type {string[]} */ args) {
  try {
    return execFileSync(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'], timeout: 10_000 }).toString();
  } catch {
    return '';
  }
}

/** Kills every process living in a namespace (wrangler's workerd, iperf3, Chromium...) and deletes it. */
export function removeNamespaceSync(/** @type {string} */ ns) {
  if (!namespaceExists(ns)) return;
  for (let attempt = 0; attempt < 5; attempt++) {
    const pids = runSync('ip', ['netns', 'pids', ns]).split(/\s+/).filter(Boolean).map(Number);
    if (pids.length === 0) break;
    for (const pid of pids) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
    runSync('sleep', ['0.2']);
  }
  // `ip netns del` can fail while the kernel still tears down a just-killed process: retry a few times.
  for (let attempt = 0; attempt < 5 && namespaceExists(ns); attempt++) {
    if (attempt > 0) runSync('sleep', ['0.2']);
    runSync('ip', ['netns', 'del', ns]);
  }
}

export function namespaceExists(/** @type {string} */ ns) {
  return runSync('ip', ['netns', 'list'])
    .split('\n')
    .some((line) => line.split(' ')[0] === ns);
}

/** Signals a spawned child's whole process group (it was started detached), falling back to the child alone. */
export function killGroup(
  /** @type {import('node:child_process').ChildProcess} */ child,
  /** @type {NodeJS.Signals} */ signal,
) {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}
