// A rate-shaped network link between two fresh network namespaces, for honest benchmarks on one machine.
//
//   const link = await createShapedLink({ prefix: 'skprio', downMbit: 50, upMbit: 10 });
//   const server = link.spawn(link.serverNs, 'wrangler', ['dev', '--ip', '0.0.0.0', '--port', '8811']);
//   // Playwright: chromium.launch({ executablePath: link.chromiumPath, args: [...] }) -> http://${link.serverIp}:8811
//   await link.destroy();
//
// Two topologies (link-topology.mjs). Direct (the default): <prefix>-srv (serverIp 10.99.0.1) <== veth ==>
// <prefix>-cli (clientIp 10.99.0.2); "down" is shaped with tbf on the server's veth egress, "up" on the client's.
// Routed (`emulator: true`, or `down`/`up` conditions given): a router namespace <prefix>-rtr between them
// (clientIp 10.99.1.2) runs tools/link-emulator, which applies per-direction delay, jitter and loss to the packets
// themselves, so TCP sees the RTT and the loss (this kernel has no netem); tbf sits on the router's egress.
// GSO/TSO are off on every veth end so tbf sees real 1514-byte packets (with them on, low rates swing wildly).
// Needs root. Namespaces are removed, and every process inside them killed, on destroy(), on process exit and on
// SIGINT/SIGTERM; stale namespaces with the same prefix (from a crashed run) are removed at creation. Use a prefix
// unique to your tool (≤ 10 chars, [a-z0-9]) because two live links with the same prefix would clobber each other.
import { spawn as spawnChild } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPerfect } from './link-conditions.mjs';
import { startEmulator } from './link-emulator.mjs';
import { directTopology, emulatorRuleCommands, linkNames, routedTopology } from './link-topology.mjs';
import { killGroup, removeNamespaceSync, run } from './netns-process.mjs';

const killGraceMs = 3_000;

/**
 * How much of the rate the bucket holds by default (ms). tbf sends from a busy queue only as its timer wakes, and a
 * bucket of 1 ms lost every token a late wake-up should have banked: with a browser, workerd and the emulator busy
 * on this 2-core machine, a 25/5 Mbit/s line sent 20.1–22.0 Mbit/s from a queue of 60–150 kB through whole
 * speed-test downloads, while iperf3 (one light process) read 23.9 on it minutes earlier; with 10 ms it sent 23.9 in
 * every window (2026-11-29, bench/accuracy/findings.md). 10 ms is 1.25 % of a second: what a short request can gain
 * from a full bucket.
 */
const bucketMs = 10;

/**
 * The shaper's queue by default, as the time its packets may wait (tbf `latency`): a deep, bufferbloated queue, as in
 * many home routers and cable modems. `setRates({ queueMs })` sets a shallower one (a data-centre switch, a policed
 * mobile link), where streams lose packets to the full queue instead of waiting in it.
 */
export const defaultQueueMs = 400;

/**
 * tbf arguments for one direction. The bucket defaults to `bucketMs` worth of the rate (at least 32 kbit).
 * @param {number} rateMbit
 * @param {number} [burstKbit]
 * @param {number} [queueMs] how long a packet may wait in the queue (tbf `latency`), ms
 */
function tbfArgs(rateMbit, burstKbit, queueMs = defaultQueueMs) {
  const burst = Math.max(32, Math.round(burstKbit ?? rateMbit * bucketMs));
  return ['tbf', 'rate', `${rateMbit}mbit`, 'burst', `${burst}kbit`, 'latency', `${queueMs}ms`];
}

/**
 * Whether this process may build a shaped link here (root, iproute2, veth, tbf, ethtool; with `emulator`, also a
 * TUN device inside a namespace and ping). Never throws.
 * @param {{ emulator?: boolean }} [options]
 * @returns {Promise<{ ok: boolean, reason?: string }>}
 */
export async function canCreateNamespaces(options = {}) {
  if (process.platform !== 'linux')
    return { ok: false, reason: `network namespaces need Linux, not ${process.platform}` };
  if (process.getuid?.() !== 0) return { ok: false, reason: 'network namespaces need root (run as root or in CI)' };
  const ethtool = await run('ethtool', ['--version'], { timeoutMs: 5_000 });
  if (ethtool.code !== 0) return { ok: false, reason: 'ethtool is missing (apt-get install -y ethtool)' };
  const ns = `skprobe${process.pid}`;
  try {
    const steps = [
      ['netns', 'add', ns],
      ['-n', ns, 'link', 'add', 'skprobe0', 'type', 'veth', 'peer', 'name', 'skprobe1'],
    ];
    for (const args of steps) {
      const result = await run('ip', args, { timeoutMs: 5_000 });
      if (result.code !== 0) return { ok: false, reason: `ip ${args.join(' ')} failed: ${result.output.trim()}` };
    }
    const tc = await run('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'skprobe0', 'root', ...tbfArgs(10)]);
    if (tc.code !== 0) return { ok: false, reason: `tc tbf is not available: ${tc.output.trim()}` };
    if (options.emulator) {
      const tun = await run('ip', ['-n', ns, 'tuntap', 'add', 'dev', 'skprobet', 'mode', 'tun'], { timeoutMs: 5_000 });
      if (tun.code !== 0) return { ok: false, reason: `no TUN device in a namespace: ${tun.output.trim()}` };
      const ping = await run('ping', ['-V'], { timeoutMs: 5_000 });
      if (ping.code !== 0) return { ok: false, reason: 'ping is missing (apt-get install -y iputils-ping)' };
    }
    return { ok: true };
  } finally {
    removeNamespaceSync(ns);
  }
}

/** @typedef {Awaited<ReturnType<typeof createShapedLink>>} ShapedLink */

/**
 * Builds the link. Rates are per direction in Mbit/s of line rate (TCP goodput is ≈ rate × 1448/1514).
 * `down`/`up` (or `emulator: true`) build the routed topology with the link emulator; change them later with
 * setConditions.
 * `emulatorBinary` runs another link-emulator build (bench/emulator compares builds).
 * @param {{ prefix: string, downMbit: number, upMbit: number, burstKbit?: number, emulator?: boolean,
 *   emulatorBinary?: string,
 *   down?: import('./link-conditions.mjs').DirectionConditions, up?: import('./link-conditions.mjs').DirectionConditions }} options
 */
export async function createShapedLink({
  prefix,
  downMbit,
  upMbit,
  burstKbit,
  emulator = false,
  emulatorBinary,
  down,
  up,
}) {
  const names = linkNames(prefix);
  const { serverNs, clientNs, routerNs } = names;
  const routed = emulator || down !== undefined || up !== undefined;
  const topology = routed ? routedTopology(names) : directTopology(names);
  const wrapperDir = mkdtempSync(join(tmpdir(), `${prefix}-link-`));
  const { cleanupSync, must, spawnIn, destroy } = trackLinkLife(names, wrapperDir);

  removeNamespaceSync(clientNs);
  removeNamespaceSync(routerNs);
  removeNamespaceSync(serverNs);
  for (const [cmd, args] of topology.commands) await must(cmd, args);

  const setRates = rateSetter(topology, burstKbit, must);
  await setRates({ downMbit, upMbit });
  const chromiumPath = writeChromiumWrapper(wrapperDir, clientNs);

  // The emulator runs for the link's whole life.
  const linkEmulator = routed
    ? await startEmulator((cmd, args, opts) => spawnIn(routerNs, cmd, args, opts), {
        tun: names.tunDev,
        clientNet: /** @type {ReturnType<typeof routedTopology>} */ (topology).clientNet,
        binary: emulatorBinary,
      }).catch((error) => {
        cleanupSync();
        throw error;
      })
    : undefined;
  const setConditions = conditionsSetter(names, linkEmulator, must);
  if (routed) await setConditions({ down, up });

  const { serverIp, clientIp } = topology;
  return {
    serverNs,
    clientNs,
    /** The router namespace (routed links only). */
    routerNs: routed ? routerNs : undefined,
    serverIp,
    clientIp,
    chromiumPath,
    setRates,
    setConditions,
    /** The emulator's counters (routed links only): packets in/out/dropped per direction, CPU time. */
    emulatorStats: async () => {
      if (!linkEmulator) throw new Error('emulatorStats needs a routed link');
      return linkEmulator.stats();
    },
    /** Process id of the emulator (routed links only), for CPU accounting. */
    emulatorPid: linkEmulator?.pid,
    /**
     * Runs a command inside a namespace to completion (10 min default timeout).
     * @param {string} ns @param {string} cmd @param {string[]} args
     * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, cwd?: string }} [opts]
     */
    exec: (ns, cmd, args, opts) => run('ip', ['netns', 'exec', ns, cmd, ...args], opts),
    /**
     * Starts a long-running command inside a namespace, in its own process group so destroy() reaches its children.
     * stdio defaults to pipes: read them or pass `{ stdio: 'ignore' }`, or a chatty child blocks on a full pipe.
     */
    spawn: spawnIn,
    destroy,
  };
}

/** @typedef {import('./link-conditions.mjs').DirectionConditions} DirectionConditions */
/** @typedef {import('./link-topology.mjs').LinkNames} LinkNames */
/** @typedef {ReturnType<typeof directTopology>} Topology */
/** @typedef {(cmd: string, args: string[]) => Promise<void>} MustRun */
/** @typedef {(ns: string, cmd: string, args: string[], opts?: import('node:child_process').SpawnOptions) => import('node:child_process').ChildProcess} SpawnIn */

/**
 * Everything a link owns until it is destroyed: the processes it spawned, its namespaces and its wrapper directory.
 * Cleanup runs once, on destroy(), on process exit or on SIGINT/SIGTERM.
 * @param {LinkNames} names
 * @param {string} wrapperDir
 */
function trackLinkLife(names, wrapperDir) {
  const { serverNs, clientNs, routerNs } = names;
  /** @type {Set<import('node:child_process').ChildProcess>} */
  const children = new Set();
  let destroyed = false;

  const cleanupSync = () => {
    if (destroyed) return;
    destroyed = true;
    for (const child of children) killGroup(child, 'SIGKILL');
    removeNamespaceSync(clientNs);
    removeNamespaceSync(routerNs);
    removeNamespaceSync(serverNs);
    rmSync(wrapperDir, { recursive: true, force: true });
    process.off('exit', cleanupSync);
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
  /** @param {NodeJS.Signals} signal */
  const onSignal = (signal) => {
    cleanupSync();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', cleanupSync);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  /** Runs a setup command and throws with its output when it fails, after tearing everything down. @type {MustRun} */
  const must = async (cmd, args) => {
    const result = await run(cmd, args, { timeoutMs: 15_000 });
    if (result.code !== 0) {
      cleanupSync();
      throw new Error(`shaped link: \`${cmd} ${args.join(' ')}\` failed (${result.code}): ${result.output.trim()}`);
    }
  };

  /** @type {SpawnIn} */
  const spawnIn = (ns, cmd, args, opts = {}) => {
    const child = spawnChild('ip', ['netns', 'exec', ns, cmd, ...args], { detached: true, ...opts });
    children.add(child);
    child.on('exit', () => children.delete(child));
    return child;
  };

  /** Stops spawned processes (SIGTERM, then SIGKILL after 3 s), kills anything left in the namespaces, deletes them. */
  const destroy = async () => {
    if (destroyed) return;
    const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
    for (const child of children) killGroup(child, 'SIGTERM');
    await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, killGraceMs))]);
    cleanupSync();
  };

  return { cleanupSync, must, spawnIn, destroy };
}

/**
 * The function that sets both directions' tbf rates (validated, in Mbit/s).
 * @param {Topology} topology
 * @param {number | undefined} burstKbit
 * @param {MustRun} must
 */
function rateSetter(topology, burstKbit, must) {
  /** @param {{ downMbit: number, upMbit: number, queueMs?: number }} rates `queueMs`: both shapers' queue, ms */
  return async (rates) => {
    for (const rate of [rates.downMbit, rates.upMbit]) {
      if (!(rate > 0 && rate <= 10_000)) throw new Error(`rate must be in (0, 10000] Mbit/s, got ${rate}`);
    }
    const queueMs = rates.queueMs ?? defaultQueueMs;
    if (!(queueMs >= 1 && queueMs <= 2_000)) throw new Error(`queue must be in [1, 2000] ms, got ${queueMs}`);
    for (const [shaper, rate] of /** @type {const} */ ([
      [topology.shapers.down, rates.downMbit],
      [topology.shapers.up, rates.upMbit],
    ])) {
      const tbf = tbfArgs(rate, burstKbit, queueMs);
      await must('ip', ['netns', 'exec', shaper.ns, 'tc', 'qdisc', 'replace', 'dev', shaper.dev, 'root', ...tbf]);
    }
  };
}

/**
 * Writes the Chromium wrapper and returns its path. Playwright launches it like a browser binary and talks to it over
 * inherited pipe fds, which `ip netns exec` keeps, so Chromium runs in the client namespace while the test runner
 * stays outside.
 * @param {string} wrapperDir
 * @param {string} clientNs
 */
function writeChromiumWrapper(wrapperDir, clientNs) {
  const chromiumPath = join(wrapperDir, 'chromium');
  const realChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  writeFileSync(chromiumPath, `#!/bin/sh\nexec ip netns exec ${clientNs} ${realChromium} "$@"\n`);
  chmodSync(chromiumPath, 0o755);
  return chromiumPath;
}

/**
 * The function that replaces the per-direction delay, jitter and loss (routed links only); a direction left out
 * becomes perfect. With perfect conditions both ways the emulator's policy rules are removed, so the kernel forwards
 * directly (no user-space hop on links that need none).
 * @param {LinkNames} names
 * @param {Awaited<ReturnType<typeof startEmulator>> | undefined} linkEmulator
 * @param {MustRun} must
 */
function conditionsSetter(names, linkEmulator, must) {
  let rulesOn = false;
  /** @param {{ down?: DirectionConditions, up?: DirectionConditions }} conditions */
  return async (conditions) => {
    if (!linkEmulator) throw new Error('setConditions needs a routed link: createShapedLink({ emulator: true, ... })');
    await linkEmulator.set(conditions);
    const wanted = !(isPerfect(conditions.down) && isPerfect(conditions.up));
    if (wanted !== rulesOn) {
      for (const [cmd, args] of emulatorRuleCommands(names, wanted)) await must(cmd, args);
      rulesOn = wanted;
    }
  };
}
