// Lab validation of the speed test's packet-loss phase: the real phase (packages/speedtest/src/phases/loss.ts) in
// real Chromium in a client namespace, coturn in a server namespace, and tools/link-emulator between them dropping
// a known share of packets on ONE direction at a time. The phase must report that loss on that direction and about
// none on the other.
//
//   npm run bench:loss -- [--loss 2] [--packets N] [--interval-ms N] [--bytes N]   (default: what the speed test sends)
//   npm run bench:loss -- --down-mbit 0.256 --up-mbit 0.064   (a slow link: the line rates, 100/100 by default)
//   npm run bench:loss -- --rtt-ms 80   (a path with a round trip, half each way; 0 by default)
//
// Needs root (namespaces) and coturn; the link emulator comes with bench/lib/shaped-link (routed links).
// Writes bench/results/loss/<timestamp>.json and .csv.
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from '@playwright/test';
import { build } from 'esbuild';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { turnserverBinary } from '../../scripts/lib/turn.mjs';
import { chromiumArgs } from '../lib/chromium.mjs';
import { startLabTurnServer } from '../lib/lab-turn.mjs';
import { canCreateNamespaces, createShapedLink } from '../lib/shaped-link.mjs';

const { values } = parseArgs({
  options: {
    packets: { type: 'string' },
    loss: { type: 'string', default: '2' },
    'interval-ms': { type: 'string' },
    bytes: { type: 'string' },
    'down-mbit': { type: 'string', default: '100' },
    'up-mbit': { type: 'string', default: '100' },
    // Round trip the link adds (ms, half each way): SCTP's congestion control and the TCP leg see it as on a real path.
    'rtt-ms': { type: 'string', default: '0' },
  },
});
const lossPercent = Number(values.loss);
/** Overrides of the engine's defaults (`defaultLossPhase`); unset = what the speed test itself sends. */
const overrides = {
  ...(values.packets ? { packets: Number(values.packets) } : {}),
  ...(values['interval-ms'] ? { packetIntervalMs: Number(values['interval-ms']) } : {}),
  ...(values.bytes ? { packetBytes: Number(values.bytes) } : {}),
};

if (!existsSync(turnserverBinary)) throw new Error('coturn is missing: `sudo apt-get install coturn`');
const namespaces = await canCreateNamespaces({ emulator: true });
if (!namespaces.ok) throw new Error(`cannot create the lab's namespaces: ${namespaces.reason}`);

const rttMs = Number(values['rtt-ms']);
if (!(rttMs >= 0)) throw new Error(`--rtt-ms: "${values['rtt-ms']}" is not a round trip in ms`);
/** One direction of the link: half the round trip, and `loss` % dropped. @param {number} loss */
const leg = (loss) => ({ delayMs: rttMs / 2, lossPercent: loss });
/** @type {{ name: string, conditions: object, lossy: ('up' | 'down')[] }[]} */
const cases = [
  { name: `up ${lossPercent} %`, conditions: { up: leg(lossPercent), down: leg(0) }, lossy: ['up'] },
  { name: `down ${lossPercent} %`, conditions: { up: leg(0), down: leg(lossPercent) }, lossy: ['down'] },
  // Both ways at once, as the accuracy bench's profiles lose: the TCP leg then crosses a lossy link too.
  {
    name: `both ${lossPercent} %`,
    conditions: { up: leg(lossPercent), down: leg(lossPercent) },
    lossy: ['up', 'down'],
  },
  { name: 'no loss', conditions: { up: leg(0), down: leg(0) }, lossy: [] },
];

/** @typedef {typeof import('../../packages/speedtest/src/phases/loss')} LossModule the bundle's global in the page */
const bundle = await build({
  entryPoints: [join(repoRoot, 'packages/speedtest/src/phases/loss.ts')],
  bundle: true,
  format: 'iife',
  globalName: 'speedkitLoss',
  write: false,
});

const link = await createShapedLink({
  prefix: 'skloss',
  downMbit: Number(values['down-mbit']),
  upMbit: Number(values['up-mbit']),
  emulator: true,
});
if (typeof link.setConditions !== 'function') {
  await link.destroy();
  throw new Error('this shaped-link has no packet emulator (setConditions): it needs tools/link-emulator (issue 15)');
}
/**
 * @typedef {object} Row one direction of one case: packets, loss in %, its 95 % interval, and the emulator's counts
 * @property {string} case
 * @property {'up' | 'down'} direction
 * @property {number} configuredLossPct
 * @property {number} sent
 * @property {number} received
 * @property {number} lossPct
 * @property {number} lowPct
 * @property {number} highPct
 * @property {string} relayProtocols
 * @property {number | null} emulatorDropped
 * @property {number | null} emulatorPackets
 */
/** @type {Row[]} */
const rows = [];
/**
 * The phase settings the page used (engine defaults plus overrides).
 * @type {{ packets?: number, packetIntervalMs?: number, packetBytes?: number }}
 */
let used = {};
try {
  const turn = await startLabTurnServer(link);
  const browser = await chromium.launch({ executablePath: link.chromiumPath, args: [...chromiumArgs] });
  try {
    for (const testCase of cases) {
      await link.setConditions(testCase.conditions);
      const before = await link.emulatorStats().catch(() => null);
      const username = `${Math.floor(Date.now() / 1000) + 600}:bench`;
      const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
      const page = await browser.newPage();
      await page.setContent('<!doctype html><title>loss bench</title>');
      await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
      const { result, settings } = await page.evaluate(
        async (options) => {
          const { speedkitLoss } = /** @type {typeof window & { speedkitLoss: LossModule }} */ (window);
          const settings = { ...speedkitLoss.defaultLossPhase, ...options.overrides };
          const result = await speedkitLoss.runLossPhase({
            ...settings,
            turn: options.turn,
            connectTimeoutMs: 20_000,
            signal: new AbortController().signal,
          });
          return { result, settings };
        },
        { turn: { username, credential, urls: turn.urls }, overrides },
      );
      used = settings;
      await page.close();
      const after = await link.emulatorStats().catch(() => null);
      for (const direction of /** @type {const} */ (['up', 'down'])) {
        const figures = result[direction];
        rows.push({
          case: testCase.name,
          direction,
          configuredLossPct: testCase.lossy.includes(direction) ? lossPercent : 0,
          sent: figures.sent,
          received: figures.received,
          lossPct: figures.lossPct,
          lowPct: figures.lowPct,
          highPct: figures.highPct,
          relayProtocols: `${result.relayProtocols.udpPeer}/${result.relayProtocols.tcpPeer}`,
          emulatorDropped: before && after ? after[direction].dropped - before[direction].dropped : null,
          emulatorPackets: before && after ? after[direction].packets_in - before[direction].packets_in : null,
        });
      }
    }
  } finally {
    await browser.close();
    await turn.stop();
  }
} finally {
  await link.destroy();
}

/** @param {Row} row */
const verdict = (row) =>
  row.configuredLossPct > 0 ? Math.abs(row.lossPct - row.configuredLossPct) <= 0.5 : row.lossPct < 0.5;
console.log(
  `\nPacket loss through coturn across tools/link-emulator, ${rttMs} ms round trip (${used.packets} packets of ${used.packetBytes} bytes each way, one every ${used.packetIntervalMs} ms)\n`,
);
console.log('| case | direction | configured % | sent | received | measured % | 95 % interval | relay legs | pass |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  console.log(
    `| ${row.case} | ${row.direction} | ${row.configuredLossPct} | ${row.sent} | ${row.received} | ${row.lossPct.toFixed(2)} | ${row.lowPct.toFixed(2)}–${row.highPct.toFixed(2)} | ${row.relayProtocols} | ${verdict(row) ? 'yes' : 'NO'} |`,
  );
}
const dir = join(repoRoot, 'bench', 'results', 'loss');
mkdirSync(dir, { recursive: true });
const stamp = new Date().toISOString().replace(/[:.]/g, '-');
writeFileSync(join(dir, `${stamp}.json`), `${JSON.stringify({ lossPercent, rttMs, settings: used, rows }, null, 2)}\n`);
const columns = Object.keys(rows[0] ?? {});
writeFileSync(
  join(dir, `${stamp}.csv`),
  `${[columns.join(','), ...rows.map((row) => columns.map((column) => String(row[/** @type {keyof Row} */ (column)] ?? '')).join(','))].join('\n')}\n`,
);
console.log(`\nwritten bench/results/loss/${stamp}.json and .csv`);
process.exit(rows.every(verdict) ? 0 : 1);
