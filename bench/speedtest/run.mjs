// `npm run bench:speedtest`: our engine and the unmodified @cloudflare/speedtest, side by side on loopback, in
// Chromium against `wrangler dev`. Prints a table of bytes used, wall time and the reported figures, and writes
// bench/results/speedtest.{csv,json}. Options: RUNS (per engine, default 2), PORT (default 8801), QUERY (extra
// query for our page, e.g. "streams=1"), BASELINE_QUERY (e.g. "preset=small").
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from '../../scripts/build.mjs';
import { paths, repoRoot } from '../../scripts/lib/tools.mjs';
import { startServer } from './server.mjs';

/** @typedef {import('../../apps/speedtest/src/baseline').BaselineResult} BaselineResult the SPA's `window` globals */
/**
 * @typedef {object} Row one engine run, in the units of the table
 * @property {string} engine
 * @property {number} wallMs
 * @property {number} testMs
 * @property {number} bytesDown
 * @property {number} bytesUp
 * @property {number} requests
 * @property {number} downMbps
 * @property {number} upMbps
 * @property {number | null} latencyMs
 * @property {number | null} jitterMs
 * @property {number | null} loadedDownMs
 * @property {number | null} loadedUpMs
 * @property {string} notes
 */

const runs = Number(process.env.RUNS ?? 2);
const port = Number(process.env.PORT ?? 8801);
const timeoutMs = 180_000;

/** @param {import('@playwright/test').Page} page @param {string} origin @returns {Promise<Row>} */
async function runOurs(page, origin) {
  const startedMs = Date.now();
  await page.goto(`${origin}/?autostart=1${process.env.QUERY ? `&${process.env.QUERY}` : ''}`);
  const handle = await page.waitForFunction(
    () => window.__speedkitResult ?? (window.__speedkitError ? { error: window.__speedkitError } : null),
    null,
    { timeout: timeoutMs },
  );
  const r = await handle.jsonValue();
  // waitForFunction resolves only on a truthy value.
  if (!r || 'error' in r) throw new Error(`our engine failed: ${r?.error}`);
  // A direction that got nothing through leaves the run standing with the other one; here it is a failed run.
  const failed = Object.values(r.directionFailures ?? {}).filter(Boolean);
  if (failed.length > 0) throw new Error(`our engine failed: ${failed.map((f) => f?.message).join('; ')}`);
  return {
    engine: 'speedkit',
    wallMs: Date.now() - startedMs,
    testMs: r.durationMs,
    bytesDown: r.totalBytes.download,
    bytesUp: r.totalBytes.upload,
    requests: r.samples.length,
    // A direction the query turned off is null in the result: NaN here, shown as such.
    downMbps: (r.download?.bitsPerSecond.value ?? Number.NaN) / 1e6,
    upMbps: (r.upload?.bitsPerSecond.value ?? Number.NaN) / 1e6,
    latencyMs: r.latency.idleMs.value,
    jitterMs: r.latency.jitterMs,
    loadedDownMs: r.latency.downloadLoadedMs?.value ?? null,
    loadedUpMs: r.latency.uploadLoadedMs?.value ?? null,
    notes: `streams ${r.download?.streams}/${r.upload?.streams}, stop ${r.download?.stopReason}/${r.upload?.stopReason}, confidence ${r.download?.bitsPerSecond.level}/${r.upload?.bitsPerSecond.level}`,
  };
}

/** @param {import('@playwright/test').Page} page @param {string} origin @returns {Promise<Row>} */
async function runBaseline(page, origin) {
  const startedMs = Date.now();
  await page.goto(`${origin}/baseline.html${process.env.BASELINE_QUERY ? `?${process.env.BASELINE_QUERY}` : ''}`);
  const handle = await page.waitForFunction(
    () => window.__baselineResult ?? (window.__baselineError ? { error: window.__baselineError } : null),
    null,
    { timeout: timeoutMs },
  );
  const r = await handle.jsonValue();
  if (!r || 'error' in r) throw new Error(`@cloudflare/speedtest failed: ${r?.error}`);
  return {
    engine: '@cloudflare/speedtest',
    wallMs: Date.now() - startedMs,
    testMs: r.wallMs,
    bytesDown: r.bytes.download,
    bytesUp: r.bytes.upload,
    requests: r.downloadPoints.length + r.uploadPoints.length + r.latencyPoints.length,
    downMbps: (r.summary.download ?? Number.NaN) / 1e6,
    upMbps: (r.summary.upload ?? Number.NaN) / 1e6,
    latencyMs: r.summary.latency ?? null,
    jitterMs: r.summary.jitter ?? null,
    loadedDownMs: r.summary.downLoadedLatency ?? null,
    loadedUpMs: r.summary.upLoadedLatency ?? null,
    notes: 'one stream, fixed size list (packet-loss step removed: no TURN server)',
  };
}

/**
 * One engine run in a fresh browser context. A failed run is retried once: `wrangler dev` reloads (and drops the
 * requests in flight) whenever a file in the tree changes, which says nothing about either engine.
 * @param {(page: import('@playwright/test').Page, origin: string) => Promise<Row>} measure
 * @param {{ origin: string, log: () => string }} server
 */
async function measureWithRetry(measure, server) {
  for (let attempt = 1; ; attempt++) {
    const page = await browser.newPage();
    try {
      return { ...(await measure(page, server.origin)), retried: attempt > 1 };
    } catch (error) {
      process.stdout.write(`attempt ${attempt} failed: ${error instanceof Error ? error.message : error}\n`);
      process.stdout.write(`wrangler dev said:\n${server.log().split('\n').slice(-8).join('\n')}\n`);
      if (attempt >= 2) throw error;
    } finally {
      await page.close();
    }
  }
}

/** @type {[key: keyof Row | 'run', title: string][]} */
const columns = [
  ['engine', 'engine'],
  ['run', 'run'],
  ['bytesDown', 'down MB'],
  ['bytesUp', 'up MB'],
  ['testMs', 'test s'],
  ['downMbps', 'down Mbps'],
  ['upMbps', 'up Mbps'],
  ['latencyMs', 'latency ms'],
  ['jitterMs', 'jitter ms'],
  ['loadedDownMs', 'loaded↓ ms'],
  ['loadedUpMs', 'loaded↑ ms'],
];

/** @param {string} key @param {unknown} value */
function show(key, value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return String(value ?? '—');
  if (key.startsWith('bytes')) return (value / 1e6).toFixed(1);
  if (key === 'testMs') return (value / 1000).toFixed(1);
  if (key === 'run') return String(value);
  return value.toFixed(1);
}

function printTable(/** @type {Record<string, unknown>[]} */ rows) {
  const cells = rows.map((row) => columns.map(([key]) => show(key, row[key])));
  const widths = columns.map(([, title], index) => Math.max(title.length, ...cells.map((row) => row[index].length)));
  const line = (/** @type {string[]} */ values) => values.map((value, index) => value.padEnd(widths[index])).join('  ');
  process.stdout.write(`\n${line(columns.map(([, title]) => title))}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of cells) process.stdout.write(`${line(row)}\n`);
}

await build();
const server = await startServer(port);
const browser = await chromium.launch({
  executablePath: paths.chromium,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-dev-shm-usage'],
});
const rows = [];
try {
  for (let run = 1; run <= runs; run++) {
    // Alternate the order so neither engine always runs on a warmer server.
    const order = run % 2 === 1 ? [runOurs, runBaseline] : [runBaseline, runOurs];
    for (const measure of order) {
      const row = { ...(await measureWithRetry(measure, server)), run };
      rows.push(row);
      process.stdout.write(
        `${row.engine} run ${run}: ${row.downMbps.toFixed(0)} / ${row.upMbps.toFixed(0)} Mbps, ${(row.testMs / 1000).toFixed(1)} s\n`,
      );
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
rows.sort((a, b) => a.engine.localeCompare(b.engine) || a.run - b.run);
printTable(rows);
const outDir = join(repoRoot, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
/** @type {(keyof (typeof rows)[number])[]} */
const keys = [...columns.map(([key]) => key), 'wallMs', 'requests', 'retried', 'notes'];
const csv = [keys.join(','), ...rows.map((row) => keys.map((key) => JSON.stringify(row[key] ?? '')).join(','))].join(
  '\n',
);
writeFileSync(join(outDir, 'speedtest.csv'), `${csv}\n`);
writeFileSync(
  join(outDir, 'speedtest.json'),
  `${JSON.stringify({ date: new Date().toISOString(), link: 'loopback (wrangler dev)', runs: rows }, null, 2)}\n`,
);
process.stdout.write(`\nnotes: ${rows.map((row) => `${row.engine}#${row.run}: ${row.notes}`).join('; ')}\n`);
process.stdout.write(`wrote bench/results/speedtest.csv and speedtest.json\n`);
