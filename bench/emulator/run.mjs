// `npm run bench:emulator [-- --smoke] [--no-build] [--goodput-only] [--rate MBIT] [--baseline PATH] [--prefix P]`:
// validates tools/link-emulator on a routed shaped link
// (README.md): idle ping RTT against the configured RTT, single-stream iperf3 goodput on long fat paths, UDP loss
// over 10⁵ datagrams, and the emulator's CPU per Gbit/s. Prints a table and the checks, writes
// bench/results/emulator/emulator.{json,csv,md}, ends with `N passed, N failed`.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, release } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { ensureLinkEmulator } from '../lib/link-emulator.mjs';
import { canCreateNamespaces, createShapedLink } from '../lib/shaped-link.mjs';
import { pingRttsMs, tcpGoodput, udpLoss } from './measure.mjs';
import { checks, csv, limits, markdownTable } from './report.mjs';

const { values: args } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    'no-build': { type: 'boolean', default: false },
    // Only the TCP goodput rows, optionally of one rate (500 = the 500 Mbit/s @ 20 ms profile).
    'goodput-only': { type: 'boolean', default: false },
    rate: { type: 'string' },
    // Another link-emulator build measured on the same profiles back to back (reported, not checked), so a change is
    // compared within one run on a loaded machine.
    baseline: { type: 'string' },
    // Namespace prefix (≤ 9 chars): sessions running beside each other need their own.
    prefix: { type: 'string' },
  },
});
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);

const capability = await canCreateNamespaces({ emulator: true });
if (!capability.ok) {
  log(`SKIP link emulator bench: ${capability.reason}`);
  log('0 passed, 0 failed');
  process.exit(0);
}
await ensureLinkEmulator();

const startedAt = new Date();
const loadBefore = loadavg();
/** @type {import('./report.mjs').Result[]} */
const results = [];
const prefix = args.prefix ?? (args.smoke ? 'skemusmk' : 'skemub');
const link = await createShapedLink({ prefix, downMbit: 1000, upMbit: 1000, emulator: true });
const baseline = args.baseline
  ? await createShapedLink({
      prefix: `${prefix}o`,
      downMbit: 1000,
      upMbit: 1000,
      emulator: true,
      emulatorBinary: args.baseline,
    })
  : undefined;
// The lossy row is reported, not checked (goodput under loss is the congestion control's business): it shows TCP
// meeting loss per segment, retransmits ≈ drops, with super-packets cut (tools/link-emulator/README.md).
const profiles = [
  { rateMbit: 100, rttMs: 80, lossPercent: 0 },
  { rateMbit: 500, rttMs: 20, lossPercent: 0 },
  { rateMbit: 100, rttMs: 20, lossPercent: 0.5 },
].filter((p) => args.rate === undefined || p.rateMbit === Number(args.rate));
try {
  if (args.smoke) {
    // One profile, checked for RTT and loss: 40 ms, 2 % each way; ping tolerance widened for a loaded test run.
    await link.setConditions(symmetricConditions({ rttMs: 40, lossPercent: 2 }));
    results.push({
      kind: 'rtt',
      label: '40 ms RTT, 2 % loss',
      configuredMs: 40,
      rttsMs: await pingRttsMs(link, 40, 50),
    });
    for (const direction of /** @type {const} */ (['down', 'up'])) {
      const loss = await udpLoss(link, direction, { packets: 20_000, bytes: 1000, rateMbit: 40 });
      results.push({
        kind: 'loss',
        label: `2 % loss ${direction}`,
        direction,
        configuredPercent: 2,
        checked: true,
        ...loss,
      });
    }
  } else {
    if (!args['goodput-only']) await idleRtts();
    // Long fat paths, one TCP stream per direction (socket buffers up to 32 MiB, link-topology.mjs).
    for (const { rateMbit, rttMs, lossPercent } of profiles) {
      if (rateMbit === 500) await kernelForwardingReference(rateMbit);
      for (const l of baseline ? [baseline, link] : [link]) {
        await l.setRates({ downMbit: rateMbit, upMbit: rateMbit });
        await l.setConditions(symmetricConditions({ rttMs, lossPercent }));
      }
      const lossLabel = lossPercent ? `, ${lossPercent} % loss` : '';
      const checked = !lossPercent;
      for (const direction of /** @type {const} */ (['down', 'up'])) {
        if (baseline) {
          const goodput = await tcpGoodput(baseline, direction, { seconds: 10, warmUpSeconds: 3 });
          const label = `TCP ${direction} ${rateMbit} Mbit/s @ ${rttMs} ms${lossLabel}, baseline build`;
          results.push({ kind: 'goodput', label, direction, rateMbit, rttMs, lossPercent, checked: false, ...goodput });
          log(`  ${label}: ${(goodput.bps / 1e6).toFixed(1)} Mbit/s`);
        }
        const goodput = await tcpGoodput(link, direction, { seconds: 10, warmUpSeconds: 3 });
        const label = `TCP ${direction} ${rateMbit} Mbit/s @ ${rttMs} ms${lossLabel}`;
        results.push({ kind: 'goodput', label, direction, rateMbit, rttMs, lossPercent, checked, ...goodput });
        log(`  ${label}: ${(goodput.bps / 1e6).toFixed(1)} Mbit/s`);
      }
    }
    if (!args['goodput-only']) await losses();
  }
} finally {
  await link.destroy();
  await baseline?.destroy();
}

/**
 * The same rate with the emulator bypassed (the kernel forwards, ~0 ms RTT): what this machine's kernel, tbf and
 * iperf3 deliver at that moment's load, so a shortfall can be told apart from the emulator's (reported, not checked).
 * @param {number} rateMbit
 */
async function kernelForwardingReference(rateMbit) {
  await link.setRates({ downMbit: rateMbit, upMbit: rateMbit });
  await link.setConditions({});
  for (const direction of /** @type {const} */ (['down', 'up'])) {
    const goodput = await tcpGoodput(link, direction, { seconds: 10, warmUpSeconds: 3 });
    const label = `TCP ${direction} ${rateMbit} Mbit/s, kernel forwarding (no emulator, ~0 ms)`;
    results.push({ kind: 'goodput', label, direction, rateMbit, rttMs: 0, checked: false, ...goodput });
    log(`  ${label}: ${(goodput.bps / 1e6).toFixed(1)} Mbit/s`);
  }
}

/** Idle RTT at 0, 20, 80 and 200 ms. */
async function idleRtts() {
  // Idle RTT: the kernel-forwarded path (emulator bypassed) shows the base RTT the emulator's figures include.
  await link.setConditions({});
  results.push({
    kind: 'rtt',
    label: 'no emulation (kernel forwarding)',
    configuredMs: 0,
    rttsMs: await pingRttsMs(link, 50),
  });
  for (const rttMs of [0, 20, 80, 200]) {
    // reorder=allow with no delay changes nothing but keeps the emulator in the path: its own cost at 0 ms.
    const through = { reorder: true };
    await link.setConditions(rttMs === 0 ? { down: through, up: through } : symmetricConditions({ rttMs }));
    const label = rttMs === 0 ? 'through the emulator, 0 ms' : `${rttMs} ms RTT`;
    results.push({ kind: 'rtt', label, configuredMs: rttMs, rttsMs: await pingRttsMs(link, 50) });
  }
}

/** Bernoulli loss both ways at 0.5 % and 2 %, and Gilbert–Elliott loss down. */
async function losses() {
  // Loss over 10⁵ datagrams per direction, at a rate the path carries without queueing.
  await link.setRates({ downMbit: 1000, upMbit: 1000 });
  for (const lossPercent of [0.5, 2]) {
    await link.setConditions(symmetricConditions({ rttMs: 20, lossPercent }));
    for (const direction of /** @type {const} */ (['down', 'up'])) {
      // 2·10⁵ datagrams at 0.5 %: 10⁵ would give 500 expected drops, a binomial standard error of 4.5 %, so the
      // ±10 % check would fail one run in thirty by chance alone; at 2·10⁵ it is 3.2 % (±10 % = 3 sigma).
      const packets = lossPercent < 1 ? 200_000 : 100_000;
      const loss = await udpLoss(link, direction, { packets, bytes: 1000, rateMbit: 50 });
      results.push({
        kind: 'loss',
        label: `${lossPercent} % loss ${direction}`,
        direction,
        configuredPercent: lossPercent,
        checked: true,
        ...loss,
      });
      log(`  ${lossPercent} % ${direction}: ${loss.lossPercent.toFixed(3)} %`);
    }
  }
  // Bursty loss (Gilbert-Elliott, mean bad period 4 packets, stationary mean 1.96 %): reported, not checked.
  const burstLoss = { enterBadPercent: 0.5, exitBadPercent: 25 };
  await link.setConditions({ down: { delayMs: 10, burstLoss }, up: { delayMs: 10 } });
  const bursty = await udpLoss(link, 'down', { packets: 100_000, bytes: 1000, rateMbit: 50 });
  results.push({
    kind: 'loss',
    label: 'Gilbert-Elliott 0.5 %/25 % down',
    direction: 'down',
    configuredPercent: 1.96,
    checked: false,
    ...bursty,
  });
}

const table = markdownTable(results);
const outcome = checks(results, args.smoke ? { ...limits, rttMs: 1, lossRelativePercent: 15 } : limits);
log(`\n${table}\n`);
for (const check of outcome) log(`${check.ok ? '✔' : '✘'} ${check.text}`);
const meta = {
  title: args.smoke ? 'Smoke' : 'Full run',
  startedAt: startedAt.toISOString(),
  durationS: (Date.now() - startedAt.getTime()) / 1000,
  machine: {
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    kernel: release(),
    loadBefore,
    loadAfter: loadavg(),
  },
};
const outDir = args.smoke ? join(repoRoot, 'reports') : join(repoRoot, 'bench', 'results', 'emulator');
// A partial run (--goodput-only) never overwrites the full run's results.
const base = args.smoke ? 'emulator-smoke' : args['goodput-only'] ? 'emulator-goodput' : 'emulator';
if (!existsSync(outDir)) mkdirSync(outDir, { recursive: true });
writeFileSync(join(outDir, `${base}.json`), `${JSON.stringify({ meta, results, checks: outcome }, null, 2)}\n`);
writeFileSync(join(outDir, `${base}.csv`), csv(results));
writeFileSync(join(outDir, `${base}.md`), `${table}\n`);
log(
  `load ${meta.machine.loadBefore.map((v) => v.toFixed(1)).join(' ')} → ${meta.machine.loadAfter.map((v) => v.toFixed(1)).join(' ')}`,
);
log(`wrote ${join(outDir, base)}.{json,csv,md}`);
const failed = outcome.filter((c) => !c.ok).length;
log(`${outcome.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
