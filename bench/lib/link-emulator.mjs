// The tools/link-emulator process inside a shaped link's router namespace, driven over its stdin/stdout line
// protocol: `down <spec>` / `up <spec>` answer `ok`, `stats` answers one JSON line.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { mustExec } from '../../scripts/lib/exec.mjs';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { conditionSpec } from './link-conditions.mjs';

/** Built by scripts/build.mjs (cargo build --release -p link-emulator); never committed. */
export const emulatorPath = join(repoRoot, 'target', 'release', 'link-emulator');
const answerTimeoutMs = 5_000;

/** Builds the emulator if it is missing (a bench run without `npm run build`); cargo is its own cache. */
export async function ensureLinkEmulator() {
  if (existsSync(emulatorPath)) return emulatorPath;
  await mustExec('cargo', ['build', '--release', '-p', 'link-emulator'], {
    cwd: repoRoot,
    env: toolEnv(),
    quiet: true,
  });
  return emulatorPath;
}

/**
 * @typedef {object} DirectionCounters
 * @property {number} packets_in
 * @property {number} bytes_in
 * @property {number} dropped
 * @property {number} packets_out
 * @property {number} bytes_out
 * @property {number} queued
 */
/** @typedef {{ down: DirectionCounters, up: DirectionCounters, other_packets: number, write_errors: number, malformed?: number, cut_frames?: number, cpu_user_ms: number, cpu_system_ms: number }} EmulatorStats */

/**
 * Starts the emulator on an existing TUN device and waits for `ready`.
 * @param {(cmd: string, args: string[], opts: import('node:child_process').SpawnOptions) => import('node:child_process').ChildProcess} spawnInRouter
 * @param {{ tun: string, clientNet: string, seed?: number, binary?: string }} options `binary` replaces the built
 *   emulator (bench/emulator compares builds with it).
 */
export async function startEmulator(spawnInRouter, { tun, clientNet, seed = 1, binary }) {
  binary ??= await ensureLinkEmulator();
  // Every packet of the link waits for this process: at nice 0 on a busy 2-core machine (load 6-8) it got its fair
  // share, ~25 % of a core, which capped one TCP stream at ~210 Mbit/s. Nice -15 lets it take the CPU it needs (root).
  const child = spawnInRouter(
    'nice',
    ['-n', '-15', binary, '--tun', tun, '--client-net', clientNet, '--seed', String(seed)],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  const { nextLine, stderrTail } = emulatorLineReader(child);
  const ready = await nextLine();
  if (ready !== 'ready') throw new Error(`link-emulator did not start: ${ready} ${stderrTail()}`);

  // One command at a time: answers come back in order, so each caller takes the line after its own command.
  let chain = Promise.resolve();
  /** @param {string} command */
  const ask = (command) => {
    const answer = chain.then(() => {
      child.stdin?.write(`${command}\n`);
      return nextLine();
    });
    chain = answer.then(
      () => undefined,
      () => undefined,
    );
    return answer;
  };

  return {
    /**
     * Replaces both directions' conditions (a direction left out becomes perfect).
     * @param {{ down?: import('./link-conditions.mjs').DirectionConditions, up?: import('./link-conditions.mjs').DirectionConditions }} conditions
     */
    set: async ({ down, up }) => {
      for (const [direction, spec] of [
        ['down', conditionSpec(down)],
        ['up', conditionSpec(up)],
      ]) {
        const answer = await ask(`${direction} ${spec}`);
        if (answer !== 'ok') throw new Error(`link-emulator rejected "${direction} ${spec}": ${answer}`);
      }
    },
    /** Counters since start. @returns {Promise<EmulatorStats>} */
    stats: async () => JSON.parse(await ask('stats')),
    /** The emulator's process id (CPU accounting). */
    pid: child.pid,
    stop: async () => {
      child.stdin?.end('quit\n');
      await Promise.race([
        new Promise((resolve) => child.once('exit', resolve)),
        new Promise((resolve) => setTimeout(resolve, 1_000)),
      ]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}

/**
 * The emulator's answers, one line at a time (`nextLine` waits for the next line printed on stdout, bounded in
 * time), and the end of its stderr for error messages.
 * @param {import('node:child_process').ChildProcess} child
 */
function emulatorLineReader(child) {
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr = (stderr + chunk.toString()).slice(-2000);
  });
  /** @type {string[]} */
  const lines = [];
  /** @type {((line: string) => void)[]} */
  const waiting = [];
  const reader = createInterface({ input: /** @type {import('node:stream').Readable} */ (child.stdout) });
  reader.on('line', (line) => {
    const next = waiting.shift();
    if (next) next(line);
    else lines.push(line);
  });
  /** The next line the emulator prints, bounded in time. @returns {Promise<string>} */
  const nextLine = () =>
    new Promise((resolve, reject) => {
      const queued = lines.shift();
      if (queued !== undefined) return resolve(queued);
      const timer = setTimeout(() => {
        const index = waiting.indexOf(take);
        if (index >= 0) waiting.splice(index, 1);
        reject(new Error(`link-emulator did not answer within ${answerTimeoutMs} ms: ${stderr.trim()}`));
      }, answerTimeoutMs);
      const take = (/** @type {string} */ line) => {
        clearTimeout(timer);
        resolve(line);
      };
      waiting.push(take);
    });
  return { nextLine, stderrTail: () => stderr.trim() };
}
