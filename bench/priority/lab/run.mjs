// The perceived-speed lab: the demo page (10 progressive JPEGs) through the real Worker (`wrangler dev`), behind an
// HTTP/2 server that schedules by priority, loaded by Chromium over a 2 Mbit/s tbf link between two network
// namespaces. Speed Index comes from a Chromium trace with screenshots (speedline-core). Same bytes in every mode;
// only the server's scheduling differs. Modes are interleaved run by run so drift hits all of them alike.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import speedline from 'speedline-core';
import { toolEnv } from '../../../scripts/lib/tools.mjs';
import { canCreateNamespaces, createShapedLink } from '../../lib/shaped-link.mjs';
import { printTable, writeResults } from '../report.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const wranglerPort = 8803;
const originPort = 8900;
const modes = /** @type {const} */ (['fifo', 'round-robin', 'rfc9218', 'cf']);
const firstServerPort = 8443;
const downMbit = 2;
const upMbit = 10;
// Pace payload at 92% of the tbf rate: TLS + HTTP/2 + TCP/IP overhead is ~5%, and a standing queue in tbf would
// hold already-scheduled bytes that a more urgent stream can then not overtake.
const paceBytesPerSecond = Math.round(((downMbit * 1e6) / 8) * 0.92);
const traceCategories = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.screenshot',
  'blink.user_timing',
  'loading',
];

function selfSignedCert(dir) {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=speedkit-lab',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/**
 * A copy of the tree for wrangler dev (the demo page and images included, caches left out), so concurrent edits by other
 * engineers do not reload the Worker mid-run; node_modules is linked.
 */
function snapshotWorker(dir) {
  const skip = new Set(['node_modules', '.git', 'target', '.wrangler', 'reports', 'results', '.tools']);
  cpSync(repoRoot, dir, { recursive: true, filter: (source) => !skip.has(source.slice(source.lastIndexOf('/') + 1)) });
  symlinkSync(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
}

async function waitFor(check, what, timeoutMs = 90_000) {
  const deadlineMs = Date.now() + timeoutMs;
  while (Date.now() < deadlineMs) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not come up within ${timeoutMs / 1000} s`);
}

/** One page load: Speed Index and friends from the trace, bytes from Resource Timing. */
async function measure(browser, url) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { screenshots: true, categories: traceCategories });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForTimeout(500); // let the last paint land in the trace
    const stats = await page.evaluate(() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const images = performance.getEntriesByType('resource');
      return {
        loadMs: nav.loadEventStart,
        protocol: nav.nextHopProtocol,
        bodyBytes: images.reduce((sum, e) => sum + e.encodedBodySize, 0) + nav.encodedBodySize,
        images: images.length,
        timing: images.map(
          (e) =>
            `${e.name.split('/').pop()} req ${Math.round(e.requestStart)} first ${Math.round(e.responseStart)} end ${Math.round(e.responseEnd)}`,
        ),
      };
    });
    const trace = JSON.parse((await browser.stopTracing()).toString());
    const events = trace.traceEvents ?? trace;
    const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
    const result = await speedline(events, { timeOrigin: nav?.ts, include: 'speedIndex' });
    if (process.env.LAB_DEBUG) {
      process.stdout.write(`    ${stats.timing.join('\n    ')}\n`);
      const { mkdirSync, writeFileSync } = await import('node:fs');
      const dir = join(tmpdir(), 'prio-frames', new URL(url).port);
      mkdirSync(dir, { recursive: true });
      for (const e of events.filter((x) => x.name === 'Screenshot' && x.args?.snapshot)) {
        writeFileSync(
          join(dir, `${String(Math.round((e.ts - (nav?.ts ?? 0)) / 1000)).padStart(5, '0')}.jpg`),
          Buffer.from(e.args.snapshot, 'base64'),
        );
      }
      const progress = result.frames.map(
        (f) => `${Math.round(f.getTimeStamp() - result.beginning)}:${Math.round(f.getProgress())}`,
      );
      process.stdout.write(`    frames ${progress.join(' ')}\n`);
    }
    const { timing, ...kept } = stats;
    return {
      speedIndexMs: result.speedIndex,
      firstVisualMs: result.first,
      visuallyCompleteMs: result.complete,
      ...kept,
    };
  } finally {
    await context.close();
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

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
  const link = await createShapedLink({ prefix: 'skprio', downMbit, upMbit });
  try {
    process.stdout.write(`  link ${link.serverNs} <-> ${link.clientNs} up\n`);
    const { cert, key } = selfSignedCert(work);
    const workerDir = join(work, 'worker');
    snapshotWorker(workerDir);
    const env = toolEnv();
    // The priority capability deployed alone (`--env priority`) in front of a plain origin, as a site owner would.
    link.spawn(
      link.serverNs,
      process.execPath,
      [
        join(repoRoot, 'bench/priority/lab/origin.mjs'),
        '--port',
        String(originPort),
        '--root',
        join(workerDir, 'apps/speedtest/public'),
      ],
      { env, stdio: 'ignore' },
    );
    const wrangler = link.spawn(
      link.serverNs,
      join(repoRoot, 'node_modules/.bin/wrangler'),
      [
        'dev',
        '--env',
        'priority',
        '--ip',
        '127.0.0.1',
        '--port',
        String(wranglerPort),
        '--local-upstream',
        `127.0.0.1:${originPort}`,
        '--upstream-protocol',
        'http',
        '--persist-to',
        join(work, 'state'),
        '--log-level',
        'warn',
      ],
      { cwd: workerDir, env, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let wranglerLog = '';
    const keep = (chunk) => {
      wranglerLog = (wranglerLog + chunk.toString()).slice(-4000);
    };
    wrangler.stdout?.on('data', keep);
    wrangler.stderr?.on('data', keep);
    for (const [index, mode] of modes.entries()) {
      link.spawn(
        link.serverNs,
        process.execPath,
        [
          join(repoRoot, 'bench/priority/lab/h2-server.mjs'),
          '--port',
          String(firstServerPort + index),
          '--upstream',
          `http://127.0.0.1:${wranglerPort}`,
          '--mode',
          mode,
          '--rate',
          String(paceBytesPerSecond),
          '--cert',
          cert,
          '--key',
          key,
        ],
        { env, stdio: 'ignore' },
      );
    }
    process.stdout.write('  waiting for wrangler dev in the server namespace\n');
    await waitFor(async () => {
      if (wrangler.exitCode !== null || wranglerLog.includes('Build failed')) {
        throw new Error(`wrangler dev failed:\n${wranglerLog}`);
      }
      const probe = await link.exec(
        link.serverNs,
        'curl',
        [
          '-s',
          '-o',
          '/dev/null',
          '-w',
          '%{http_code}',
          `http://127.0.0.1:${wranglerPort}/demo/priority/astronaut.jpg`,
          '-m',
          '3',
        ],
        { timeoutMs: 5000 },
      );
      return probe.output.trim() === '200';
    }, 'wrangler dev');
    process.stdout.write('  Worker up; launching Chromium in the client namespace\n');
    const browser = await chromium.launch({
      executablePath: link.chromiumPath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    });
    const samples = [];
    try {
      const url = (index) => `https://${link.serverIp}:${firstServerPort + index}/demo/priority.html`;
      for (const index of modes.keys()) {
        const warm = await measure(browser, url(index)); // warm-up: TLS, Worker, page cache
        process.stdout.write(
          `  warm-up ${modes[index]}: ${warm.protocol}, ${warm.bodyBytes} bytes, SI ${Math.round(warm.speedIndexMs)} ms\n`,
        );
      }
      for (let run = 0; run < runs; run++) {
        for (const [index, mode] of modes.entries()) {
          const sample = { run, mode, ...(await measure(browser, url(index))) };
          samples.push(sample);
          process.stdout.write(
            `  run ${run + 1}/${runs} ${mode.padEnd(11)} SI ${Math.round(sample.speedIndexMs)} ms\n`,
          );
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

function report(samples, runs) {
  const base = median(samples.filter((s) => s.mode === 'fifo').map((s) => s.speedIndexMs));
  const rr = median(samples.filter((s) => s.mode === 'round-robin').map((s) => s.speedIndexMs));
  const rows = modes.map((mode) => {
    const mine = samples.filter((s) => s.mode === mode);
    const si = median(mine.map((s) => s.speedIndexMs));
    return {
      mode,
      runs: mine.length,
      speedIndexMs: si,
      speedIndexMinMs: Math.min(...mine.map((s) => s.speedIndexMs)),
      speedIndexMaxMs: Math.max(...mine.map((s) => s.speedIndexMs)),
      vsFifoPct: (100 * (si - base)) / base,
      vsRoundRobinPct: (100 * (si - rr)) / rr,
      firstVisualMs: median(mine.map((s) => s.firstVisualMs)),
      visuallyCompleteMs: median(mine.map((s) => s.visuallyCompleteMs)),
      loadMs: median(mine.map((s) => s.loadMs)),
      bodyBytes: median(mine.map((s) => s.bodyBytes)),
      protocol: mine[0]?.protocol,
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
    'firstVisualMs',
    'visuallyCompleteMs',
    'loadMs',
    'bodyBytes',
    'protocol',
  ]);
  const setup = { downMbit, upMbit, paceBytesPerSecond, viewport: '1280x720', date: new Date().toISOString() };
  writeResults('lab-speed-index', rows, { setup, samples });
  if (!existsSync(join(repoRoot, 'bench/results/priority/lab-speed-index.json')))
    throw new Error('results not written');
}
