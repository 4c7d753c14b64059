// The perceived-speed lab: the demo page (10 progressive JPEGs) from an origin, through the priority Worker deployed
// alone, behind an HTTP/2 server that schedules by priority, loaded by Chromium over a 2 Mbit/s tbf link between two
// network namespaces. Same bytes in every mode; only the server's scheduling differs. Modes are interleaved run by
// run so drift (other load on the machine) hits all of them alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../../lib/chromium.mjs';
import { canCreateNamespaces, createShapedLink } from '../../lib/shaped-link.mjs';
import { printTable, writeResults } from '../report.mjs';
import { measure } from './measure.mjs';
import { startServers } from './servers.mjs';

const modes = /** @type {const} */ (['fifo', 'round-robin', 'rfc9218', 'cf']);
const firstPort = 8443;
const downMbit = 2;
const upMbit = 10;
// Pace payload at 92% of the tbf rate: TLS + HTTP/2 + TCP/IP overhead is ~5%, and a standing queue in tbf would
// hold already-scheduled bytes that a more urgent stream could then not overtake.
const paceBytesPerSecond = Math.round(((downMbit * 1e6) / 8) * 0.92);

/** Median of the finite values. @param {number[]} all */
const median = (all) => {
  const sorted = all.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** @param {string[]} args `--runs N` (default 5) */
export async function runLab(args = []) {
  const runsArg = args.indexOf('--runs');
  const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 5;
  const possible = await canCreateNamespaces();
  if (!possible.ok) {
    process.stdout.write(`\nperceived-speed lab skipped: ${possible.reason}\n`);
    return;
  }
  process.stdout.write(`\nperceived-speed lab: ${runs} runs per mode, ${downMbit} Mbit/s down\n`);
  const work = mkdtempSync(join(tmpdir(), 'speedkit-priority-lab-'));
  // Namespace prefix: one per lab running on the machine (a new link removes stale namespaces with its prefix).
  const link = await createShapedLink({ prefix: process.env.PRIORITY_LAB_PREFIX ?? 'skprio', downMbit, upMbit });
  try {
    await startServers(link, work, { modes, firstPort, paceBytesPerSecond });
    process.stdout.write('  Worker up; Chromium in the client namespace\n');
    const browser = await chromium.launch({ executablePath: link.chromiumPath, args: chromiumArgs });
    /** @type {Sample[]} */
    const samples = [];
    try {
      const url = (/** @type {number} */ index) => `https://${link.serverIp}:${firstPort + index}/demo/priority.html`;
      for (const [index, mode] of modes.entries()) {
        const warm = await measure(browser, url(index)); // warm-up: TLS, the Worker's isolate and offset cache
        process.stdout.write(`  warm-up ${mode}: ${warm.protocol}, ${warm.bodyBytes} bytes\n`);
      }
      for (let run = 0; run < runs; run++) {
        for (const [index, mode] of modes.entries()) {
          const sample = { run, mode, ...(await measure(browser, url(index))) };
          samples.push(sample);
          const si = `SI ${Math.round(sample.speedIndexMs)} ms, pSI ${Math.round(sample.perceptualSpeedIndexMs)} ms`;
          process.stdout.write(`  run ${run + 1}/${runs} ${mode.padEnd(11)} ${si}\n`);
        }
      }
    } finally {
      await browser.close();
    }
    report(samples, runs);
  } finally {
    await link.destroy();
    rmSync(work, { recursive: true, force: true });
  }
}

/** @typedef {{ run: number, mode: (typeof modes)[number] } & Awaited<ReturnType<typeof measure>>} Sample */
/** @typedef {'speedIndexMs' | 'perceptualSpeedIndexMs' | 'firstVisualMs' | 'visuallyCompleteMs' | 'loadMs' | 'bodyBytes'} Figure */

/** @param {Sample[]} samples @param {number} runs */
function report(samples, runs) {
  const of = (/** @type {Sample['mode']} */ mode, /** @type {Figure} */ key) =>
    samples.filter((s) => s.mode === mode).map((s) => s[key]);
  const fifo = median(of('fifo', 'speedIndexMs'));
  const roundRobin = median(of('round-robin', 'speedIndexMs'));
  const rows = modes.map((mode) => {
    const si = median(of(mode, 'speedIndexMs'));
    return {
      mode,
      runs: of(mode, 'speedIndexMs').length,
      speedIndexMs: si,
      speedIndexMinMs: Math.min(...of(mode, 'speedIndexMs')),
      speedIndexMaxMs: Math.max(...of(mode, 'speedIndexMs')),
      vsFifoPct: (100 * (si - fifo)) / fifo,
      vsRoundRobinPct: (100 * (si - roundRobin)) / roundRobin,
      perceptualSpeedIndexMs: median(of(mode, 'perceptualSpeedIndexMs')),
      firstVisualMs: median(of(mode, 'firstVisualMs')),
      visuallyCompleteMs: median(of(mode, 'visuallyCompleteMs')),
      loadMs: median(of(mode, 'loadMs')),
      bodyBytes: median(of(mode, 'bodyBytes')),
      protocol: samples.find((s) => s.mode === mode)?.protocol,
    };
  });
  printTable(`Speed Index, demo page over ${downMbit} Mbit/s tbf (median of ${runs} runs; lower is better)`, rows, [
    'mode',
    'runs',
    'speedIndexMs',
    'speedIndexMinMs',
    'speedIndexMaxMs',
    'vsFifoPct',
    'vsRoundRobinPct',
    'perceptualSpeedIndexMs',
    'firstVisualMs',
    'visuallyCompleteMs',
    'loadMs',
    'bodyBytes',
    'protocol',
  ]);
  const setup = { downMbit, upMbit, paceBytesPerSecond, viewport: '1280x720', date: new Date().toISOString() };
  writeResults('lab-speed-index', rows, { setup, samples });
}
