// `node bench/accuracy/staggered-iperf.mjs [--profiles "100/100 80ms 0.5%"] [--rounds 3] [--lead 3] [--seconds 6]`:
// the engine's ramp in iperf3's terms. One TCP stream runs alone for `--lead` seconds, then a second one joins for
// `--seconds`; both report their receiver's bytes every 250 ms, and the sum is read per second after the join. Where
// the joined pair carries less in its first seconds than later (a queue filling, losses holding back more), an engine
// that measures right after adding a stream reads low on that path while the path is fine. Beside it, the
// bottleneck's tbf counters every 250 ms (bytes sent, packets dropped) tell a link that carried less from bytes that
// crossed it and waited at the receiver. `--directions down` skips uploads. Ad hoc, needs root like the bench. Prints
// a table and writes bench/results/accuracy/staggered-iperf-<time>.json (findings.md, 2026-11-27).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startIperfServer } from '../lib/iperf-server.mjs';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { linkNames } from '../lib/link-topology.mjs';
import { createShapedLink } from '../lib/shaped-link.mjs';
import { parseProfiles } from './profiles.mjs';
import { resultsDir } from './results.mjs';
import { median } from './stats.mjs';
import { iperfReceiverReport } from './truth.mjs';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'skstagger' },
    profiles: { type: 'string', default: '100/100 80ms 0.5%' },
    rounds: { type: 'string', default: '3' },
    lead: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '6' },
    directions: { type: 'string', default: 'down,up' },
  },
});
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const rounds = Math.max(1, Number(args.rounds));
const leadSeconds = Number(args.lead);
const joinedSeconds = Number(args.seconds);
const ports = [5211, 5212];
const profiles = parseProfiles(args.profiles);

/**
 * Receiver bytes of one iperf3 run in 250 ms intervals, each placed by the run's launch time (ms since `originMs`).
 * @param {any} link
 * @param {'down' | 'up'} direction
 * @param {number} port
 * @param {number} seconds
 * @param {number} originMs
 */
async function intervalRun(link, direction, port, seconds, originMs) {
  const launchedMs = Date.now() - originMs;
  const argv = ['-c', link.serverIp, '-p', String(port), '-t', String(seconds), '-i', '0.25', '-J'];
  if (direction === 'down') argv.push('-R');
  else argv.push('--get-server-output');
  const { code, output } = await link.exec(link.clientNs, 'iperf3', argv, { timeoutMs: (seconds + 20) * 1000 });
  if (code !== 0) throw new Error(`iperf3 failed (${code}): ${output.slice(0, 300)}`);
  return (iperfReceiverReport(JSON.parse(output), direction).intervals ?? []).map((/** @type {any} */ interval) => ({
    startMs: launchedMs + interval.sum.start * 1000,
    endMs: launchedMs + interval.sum.end * 1000,
    bytes: interval.sum.bytes,
  }));
}

/**
 * Samples the shaper's counters (bytes sent, packets dropped) every 250 ms until stopped.
 * @param {any} link @param {string} dev @param {number} originMs
 */
function sampleShaper(link, dev, originMs) {
  /** @type {{ ms: number, bytes: number, dropped: number }[]} */
  const samples = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const ms = Date.now() - originMs;
      const { output } = await link.exec(link.routerNs, 'tc', ['-s', 'qdisc', 'show', 'dev', dev], { timeoutMs: 2000 });
      const match = /Sent (\d+) bytes \d+ pkt \(dropped (\d+)/.exec(output);
      if (match) samples.push({ ms, bytes: Number(match[1]), dropped: Number(match[2]) });
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return samples;
    },
  };
}

/**
 * Bytes of `spans` inside [fromMs, toMs), each span's bytes spread evenly over it.
 * @param {{ startMs: number, endMs: number, bytes: number }[]} spans @param {number} fromMs @param {number} toMs
 */
function bytesIn(spans, fromMs, toMs) {
  let total = 0;
  for (const span of spans) {
    const overlap = Math.min(toMs, span.endMs) - Math.max(fromMs, span.startMs);
    if (overlap > 0 && span.endMs > span.startMs) total += (span.bytes * overlap) / (span.endMs - span.startMs);
  }
  return total;
}

const startedAt = new Date();
const loadBefore = loadavg();
/** @type {any[]} */
const runs = [];
const link = await createShapedLink({ prefix: args.prefix, downMbit: 100, upMbit: 100, emulator: true });
// The direction's tbf: down leaves the router toward the client, up toward the server (link-topology.mjs).
const names = linkNames(args.prefix);
/** @type {any[]} */
let servers = [];
try {
  for (const profile of profiles) {
    await link.setRates({ downMbit: profile.downMbit, upMbit: profile.upMbit });
    await link.setConditions(symmetricConditions(profile));
    log(profile.id);
    for (let round = 1; round <= rounds; round++) {
      for (const direction of /** @type {('down' | 'up')[]} */ (args.directions.split(','))) {
        servers = await Promise.all(ports.map((port) => startIperfServer(link, port)));
        const originMs = Date.now();
        const wire = sampleShaper(link, direction === 'down' ? names.routerClientDev : names.routerServerDev, originMs);
        const first = intervalRun(link, direction, ports[0], leadSeconds + joinedSeconds, originMs);
        await new Promise((resolve) => setTimeout(resolve, leadSeconds * 1000));
        const second = intervalRun(link, direction, ports[1], joinedSeconds, originMs);
        const [a, b] = await Promise.all([first, second]);
        const shaper = await wire.stop();
        const joinMs = b[0]?.startMs ?? leadSeconds * 1000;
        const perSecond = [];
        for (let s = 0; s < Math.floor(joinedSeconds); s++) {
          const from = joinMs + s * 1000;
          perSecond.push(((bytesIn(a, from, from + 1000) + bytesIn(b, from, from + 1000)) * 8) / 1e6);
        }
        const wirePerSecond = [];
        const dropsPerSecond = [];
        for (let s = 0; s < Math.floor(joinedSeconds); s++) {
          const from = joinMs + s * 1000;
          const at = (/** @type {number} */ t) =>
            shaper.reduce((best, x) => (Math.abs(x.ms - t) < Math.abs(best.ms - t) ? x : best));
          const [p, q] = [at(from), at(from + 1000)];
          wirePerSecond.push(((q.bytes - p.bytes) * 8) / Math.max(1, q.ms - p.ms) / 1e3);
          dropsPerSecond.push(q.dropped - p.dropped);
        }
        const alone = (bytesIn(a, joinMs - 2000, joinMs) * 8) / 2 / 1e6;
        for (const server of servers) server.kill('SIGKILL');
        runs.push({
          profile: profile.id,
          direction,
          round,
          aloneMbit: alone,
          joinedMbitPerSecond: perSecond,
          wirePerSecond,
          dropsPerSecond,
        });
        log(
          `          bottleneck wire Mbit/s per second: ${wirePerSecond.map((v) => v.toFixed(1)).join(' ')}; tbf drops: ${dropsPerSecond.join(' ')}`,
        );
        log(
          `  round ${round} ${direction.padEnd(4)} alone (last 2 s) ${alone.toFixed(1)}; joined, per second: ${perSecond.map((v) => v.toFixed(1)).join(' ')}`,
        );
      }
    }
  }
} finally {
  for (const server of servers) server.kill('SIGKILL');
  await link.destroy();
}
const rows = [
  '| profile | direction | alone, last 2 s | joined: 1st s | 2nd | 3rd | 4th+ (mean) |',
  '|---|---|--:|--:|--:|--:|--:|',
];
for (const profile of profiles) {
  for (const direction of args.directions.split(',')) {
    const mine = runs.filter((r) => r.profile === profile.id && r.direction === direction);
    if (mine.length === 0) continue;
    const col = (/** @type {(r: any) => number} */ pick) => median(mine.map(pick)).toFixed(1);
    const rest = (/** @type {any} */ r) => {
      const tail = r.joinedMbitPerSecond.slice(3);
      return tail.length
        ? tail.reduce((/** @type {number} */ x, /** @type {number} */ y) => x + y, 0) / tail.length
        : Number.NaN;
    };
    rows.push(
      `| ${profile.id} | ${direction} | ${col((r) => r.aloneMbit)} | ${col((r) => r.joinedMbitPerSecond[0])} | ${col((r) => r.joinedMbitPerSecond[1])} | ${col((r) => r.joinedMbitPerSecond[2])} | ${col(rest)} |`,
    );
  }
}
const table = rows.join('\n');
log(`\n${table}`);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `staggered-iperf-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(
  file,
  `${JSON.stringify({ meta: { startedAt, loadBefore, loadAfter: loadavg(), leadSeconds, joinedSeconds }, runs, table }, null, 2)}\n`,
);
log(`wrote ${file}`);
