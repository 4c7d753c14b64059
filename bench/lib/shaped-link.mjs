// A rate-shaped network link between two fresh network namespaces, for honest benchmarks on one machine.
//
//   const link = await createShapedLink({ prefix: 'skprio', downMbit: 50, upMbit: 10 });
//   const server = link.spawn(link.serverNs, 'wrangler', ['dev', '--ip', '0.0.0.0', '--port', '8811']);
//   // Playwright: chromium.launch({ executablePath: link.chromiumPath, args: [...] }) -> http://${link.serverIp}:8811
//   await link.destroy();
//
// Topology: <prefix>-srv (serverIp 10.99.0.1) <== veth ==> <prefix>-cli (clientIp 10.99.0.2). "Down" is shaped with
// tbf on the server's veth egress, "up" on the client's. GSO/TSO are off on both ends so tbf sees real 1514-byte
// packets (with them on, low rates swing wildly). No netem on this kernel: add delay in user space (toxiproxy.mjs).
// Needs root. Namespaces are removed, and every process inside them killed, on destroy(), on process exit and on
// SIGINT/SIGTERM; stale namespaces with the same prefix (from a crashed run) are removed at creation. Use a prefix
// unique to your tool (≤ 10 chars, [a-z0-9]) because two live links with the same prefix would clobber each other.
import { spawn as spawnChild } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killGroup, removeNamespaceSync, run } from './netns-process.mjs';

const serverIp = '10.99.0.1';
const clientIp = '10.99.0.2';
const killGraceMs = 3_000;

/**
 * tbf arguments for one direction. The bucket defaults to 1 ms worth of the rate (at least 32 kbit): big enough that
 * the kernel timer can sustain the rate, small enough not to give short requests a head start.
 * @param {number} rateMbit
 * @param {number | undefined} burstKbit
 */
function tbfArgs(rateMbit, burstKbit) {
  const burst = Math.max(32, Math.round(burstKbit ?? rateMbit));
  return ['tbf', 'rate', `${rateMbit}mbit`, 'burst', `${burst}kbit`, 'latency', '400ms'];
}

/**
 * Whether this process may build a shaped link here (root, iproute2, veth, tbf, ethtool). Never throws.
 * @returns {Promise<{ ok: boolean, reason?: string }>}
 */
export async function canCreateNamespaces() {
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
    return { ok: true };
  } finally {
    removeNamespaceSync(ns);
  }
}

/**
 * Builds the link. Rates are per direction in Mbit/s of line rate (TCP goodput is ≈ rate × 1448/1514).
 * @param {{ prefix: string, downMbit: number, upMbit: number, burstKbit?: number }} options
 */
export async function createShapedLink({ prefix, downMbit, upMbit, burstKbit }) {
  if (!/^[a-z0-9]{1,10}$/.test(prefix)) throw new Error(`prefix must be 1-10 chars of [a-z0-9], got "${prefix}"`);
  const serverNs = `${prefix}-srv`;
  const clientNs = `${prefix}-cli`;
  const serverDev = `${prefix}-s`;
  const clientDev = `${prefix}-c`;
  /** @type {Set<import('node:child_process').ChildProcess>} */
  const children = new Set();
  const wrapperDir = mkdtempSync(join(tmpdir(), `${prefix}-link-`));
  let destroyed = false;

  const cleanupSync = () => {
    if (destroyed) return;
    destroyed = true;
    for (const child of children) killGroup(child, 'SIGKILL');
    removeNamespaceSync(clientNs);
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

  /** Runs a setup command and throws with its output when it fails, after tearing everything down. */
  const must = async (/** @type {string} */ cmd, /** @type {string[]} */ args) => {
    const result = await run(cmd, args, { timeoutMs: 15_000 });
    if (result.code !== 0) {
      cleanupSync();
      throw new Error(`shaped link: \`${cmd} ${args.join(' ')}\` failed (${result.code}): ${result.output.trim()}`);
    }
  };

  removeNamespaceSync(clientNs);
  removeNamespaceSync(serverNs);
  await must('ip', ['netns', 'add', serverNs]);
  await must('ip', ['netns', 'add', clientNs]);
  await must('ip', [
    'link',
    'add',
    serverDev,
    'netns',
    serverNs,
    'type',
    'veth',
    'peer',
    'name',
    clientDev,
    'netns',
    clientNs,
  ]);
  for (const [ns, dev, ip] of [
    [serverNs, serverDev, serverIp],
    [clientNs, clientDev, clientIp],
  ]) {
    await must('ip', ['-n', ns, 'addr', 'add', `${ip}/24`, 'dev', dev]);
    await must('ip', ['-n', ns, 'link', 'set', dev, 'up']);
    await must('ip', ['-n', ns, 'link', 'set', 'lo', 'up']);
    await must('ip', ['netns', 'exec', ns, 'ethtool', '-K', dev, 'gso', 'off', 'tso', 'off']);
  }

  /** @param {{ downMbit: number, upMbit: number }} rates */
  const setRates = async (rates) => {
    for (const rate of [rates.downMbit, rates.upMbit]) {
      if (!(rate > 0 && rate <= 10_000)) throw new Error(`rate must be in (0, 10000] Mbit/s, got ${rate}`);
    }
    await must('ip', [
      'netns',
      'exec',
      serverNs,
      'tc',
      'qdisc',
      'replace',
      'dev',
      serverDev,
      'root',
      ...tbfArgs(rates.downMbit, burstKbit),
    ]);
    await must('ip', [
      'netns',
      'exec',
      clientNs,
      'tc',
      'qdisc',
      'replace',
      'dev',
      clientDev,
      'root',
      ...tbfArgs(rates.upMbit, burstKbit),
    ]);
  };
  await setRates({ downMbit, upMbit });

  // Playwright launches this like a browser binary and talks to it over inherited pipe fds, which `ip netns exec`
  // keeps, so Chromium runs in the client namespace while the test runner stays outside.
  const chromiumPath = join(wrapperDir, 'chromium');
  const realChromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  writeFileSync(chromiumPath, `#!/bin/sh\nexec ip netns exec ${clientNs} ${realChromium} "$@"\n`);
  chmodSync(chromiumPath, 0o755);

  return {
    serverNs,
    clientNs,
    serverIp,
    clientIp,
    chromiumPath,
    setRates,
    /**
     * Runs a command inside a namespace to completion (10 min default timeout).
     * @param {string} ns @param {string} cmd @param {string[]} args
     * @param {{ timeoutMs?: number, env?: NodeJS.ProcessEnv, cwd?: string }} [opts]
     */
    exec: (ns, cmd, args, opts) => run('ip', ['netns', 'exec', ns, cmd, ...args], opts),
    /**
     * Starts a long-running command inside a namespace, in its own process group so destroy() reaches its children.
     * stdio defaults to pipes: read them or pass `{ stdio: 'ignore' }`, or a chatty child blocks on a full pipe.
     * @param {string} ns @param {string} cmd @param {string[]} args
     * @param {import('node:child_process').SpawnOptions} [opts]
     */
    spawn: (ns, cmd, args, opts = {}) => {
      const child = spawnChild('ip', ['netns', 'exec', ns, cmd, ...args], { detached: true, ...opts });
      children.add(child);
      child.on('exit', () => children.delete(child));
      return child;
    },
    /** Stops spawned processes (SIGTERM, then SIGKILL after 3 s), kills anything left in the namespaces, deletes them. */
    destroy: async () => {
      if (destroyed) return;
      const exits = [...children].map((child) => new Promise((resolve) => child.once('exit', resolve)));
      for (const child of children) killGroup(child, 'SIGTERM');
      await Promise.race([Promise.all(exits), new Promise((resolve) => setTimeout(resolve, killGraceMs))]);
      cleanupSync();
    },
  };
}
