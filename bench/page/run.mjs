// `npm run bench:page`: the speed-test page's main thread during an autostarted test, in Chromium against the local
// Worker (`wrangler dev`) on loopback, with mobile emulation and Lighthouse's 4× CPU throttling. Records a trace
// with CPU samples, lists every task over 50 ms and attributes its time to our bundle, Chart.js or everything else
// (trace-tasks.mjs), then runs Lighthouse mobile once. Prints tables and writes bench/results/page.{json,csv} and
// bench/results/page-tasks.csv.
// Options: RUNS (per width, default 2), WIDTHS (default "390,1280"), CPU (slowdown, default 4), PORT (default 8806),
// QUERY (extra page query, e.g. "bytes=100000000"), LIGHTHOUSE=0 to skip Lighthouse, TRACE_DIR to keep each trace
// (gzipped JSON, opens in Chrome DevTools' Performance panel).
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { paths, repoRoot } from '../../scripts/lib/tools.mjs';
import { chromiumArgs } from '../lib/chromium.mjs';
import { startServer } from '../speedtest/server.mjs';
import { ensureLighthouse, lighthouseVersion, runLighthouse } from './lighthouse.mjs';
import { longTasks, summarizeTasks } from './trace-tasks.mjs';

const runs = Number(process.env.RUNS ?? 2);
const widths = (process.env.WIDTHS ?? '390,1280').split(',').map(Number);
const cpuSlowdown = Number(process.env.CPU ?? 4);
const port = Number(process.env.PORT ?? 8806);
const query = process.env.QUERY ? `&${process.env.QUERY}` : '';
const resultsDir = join(repoRoot, 'bench', 'results');
/** Lighthouse's full report (~700 kB) goes with the other generated reports, not into bench/results. */
const lighthouseReport = join(repoRoot, 'reports', 'page-lighthouse.json');
/** The Chart.js chunk's file name (apps/speedtest/vite.config.ts names it). */
const chartUrl = /\/assets\/chartjs-[^/]*\.js$/;
const traceCategories = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'toplevel',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
];

/**
 * One autostarted test at one width, traced.
 * @param {import('@playwright/test').Browser} browser @param {string} origin @param {number} width
 */
async function measure(browser, origin, width) {
  const mobile = width < 600;
  const context = await browser.newContext({
    viewport: { width, height: mobile ? 844 : 900 },
    deviceScaleFactor: mobile ? 3 : 1,
    isMobile: mobile,
    hasTouch: mobile,
  });
  const page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
    await browser.startTracing(page, { categories: traceCategories });
    await page.goto(`${origin}/?autostart=1${query}`);
    const handle = await page.waitForFunction(
      () => window.__speedkitResult ?? (window.__speedkitError ? { error: window.__speedkitError } : null),
      null,
      { timeout: 300_000, polling: 1000 },
    );
    const result = /** @type {NonNullable<Awaited<ReturnType<typeof handle.jsonValue>>>} */ (await handle.jsonValue());
    if ('error' in result) throw new Error(`the test failed: ${result.error}`);
    // The charts are drawn after the result; their tasks belong to the run.
    await page.waitForFunction(() => '__speedkitChartColors' in window, null, {
      timeout: 60_000,
      polling: 500,
    });
    await page.waitForTimeout(1000);
    const cls = await page.evaluate(
      () =>
        new Promise((resolve) => {
          let total = 0;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) {
              const shift = /** @type {PerformanceEntry & { value: number, hadRecentInput: boolean }} */ (entry);
              if (!shift.hadRecentInput) total += shift.value;
            }
          }).observe({ type: 'layout-shift', buffered: true });
          setTimeout(() => resolve(total), 100);
        }),
    );
    // Where the charts were drawn: 'worker' (Chart.js off this thread) or 'main' (the page's fallback).
    const chartsOn = await page.evaluate(() => String(Reflect.get(window, '__speedkitChartThread') ?? 'unknown'));
    const traceBuffer = await browser.stopTracing();
    if (process.env.TRACE_DIR) {
      mkdirSync(process.env.TRACE_DIR, { recursive: true });
      writeFileSync(join(process.env.TRACE_DIR, `page-${width}-${Date.now()}.json.gz`), gzipSync(traceBuffer));
    }
    const trace = JSON.parse(traceBuffer.toString('utf8'));
    const tasks = longTasks(trace.traceEvents ?? trace, { origin, chartUrl });
    return {
      testMs: result.durationMs,
      downMbps: (result.download?.bitsPerSecond.value ?? Number.NaN) / 1e6,
      upMbps: (result.upload?.bitsPerSecond.value ?? Number.NaN) / 1e6,
      cls: Number(cls),
      chartsOn,
      tasks,
    };
  } finally {
    await context.close();
  }
}

/** @param {string[]} headers @param {string[][]} rows */
function printTable(headers, rows) {
  const widthsOf = headers.map((header, index) =>
    Math.max(header.length, ...rows.map((row) => row[index]?.length ?? 0)),
  );
  const line = (/** @type {string[]} */ cells) =>
    cells.map((cell, index) => cell.padEnd(widthsOf[index] ?? 0)).join('  ');
  process.stdout.write(`${line(headers)}\n${line(widthsOf.map((w) => '-'.repeat(w)))}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

const ms = (/** @type {number} */ value) => value.toFixed(0);
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(' ');

const server = await startServer(port);
const browser = await chromium.launch({ executablePath: paths.chromium, args: [...chromiumArgs] });
/** @type {Record<string, any>[]} */
const runRows = [];
/** @type {Record<string, any>[]} */
const taskRows = [];
let lighthouse = null;
try {
  const loadBefore = load();
  for (const width of widths) {
    for (let run = 1; run <= runs; run++) {
      const measured = await measure(browser, server.origin, width);
      const summary = summarizeTasks(measured.tasks);
      runRows.push({ width, run, cpuSlowdown, ...measured, tasks: undefined, summary, loadAverage: load() });
      for (const task of measured.tasks) taskRows.push({ width, run, ...task });
      process.stdout.write(`${width} px run ${run}: ${measured.tasks.length} long tasks (load ${load()})\n`);
    }
  }
  if (process.env.LIGHTHOUSE !== '0') {
    mkdirSync(join(repoRoot, 'reports'), { recursive: true });
    const missing = ensureLighthouse();
    if (missing) process.stdout.write(`Lighthouse skipped: ${missing}\n`);
    else
      lighthouse = {
        version: lighthouseVersion,
        ...runLighthouse(`${server.origin}/`, lighthouseReport),
      };
  } else process.stdout.write('Lighthouse skipped: LIGHTHOUSE=0\n');

  process.stdout.write(
    `\nLong tasks (> 50 ms) during an autostarted test, ${cpuSlowdown}× CPU, loopback; load average before ${loadBefore}\n`,
  );
  printTable(
    [
      'width',
      'run',
      'test s',
      'CLS',
      'ours n',
      'ours max',
      'Chart.js n',
      'Chart.js max',
      'other n',
      'other max',
      'most JS of ours in a task',
      'ours CPU max',
      'Chart.js CPU max',
      'charts on',
    ],
    runRows.map((row) => [
      `${row.width}`,
      `${row.run}`,
      (row.testMs / 1000).toFixed(1),
      row.cls.toFixed(3),
      `${row.summary.ours.count}`,
      ms(row.summary.ours.maxMs),
      `${row.summary.chartjs.count}`,
      ms(row.summary.chartjs.maxMs),
      `${row.summary.other.count}`,
      ms(row.summary.other.maxMs),
      ms(row.summary.ours.maxShareMs),
      ms(row.summary.ours.maxCpuMs),
      ms(row.summary.chartjs.maxCpuMs),
      row.chartsOn,
    ]),
  );
  process.stdout.write(
    `\nEvery long task (ms). task/ours/Chart.js/other: wall time, JS by script owner (the rest: layout, paint, GC, browser).\nCPU: the thread's CPU time, which other processes cannot inflate and which includes the ${cpuSlowdown}× throttle's spinning (≈ the task on an idle core at ${cpuSlowdown}×); ours/Chart.js by their share of the samples.\n`,
  );
  printTable(
    [
      'width',
      'run',
      'at s',
      'task',
      'ours',
      'Chart.js',
      'other',
      'CPU',
      'ours CPU',
      'Chart.js CPU',
      'owner',
      'most sampled script',
      'trace events (ms)',
    ],
    taskRows.map((task) => [
      `${task.width}`,
      `${task.run}`,
      (task.startMs / 1000).toFixed(1),
      ms(task.durationMs),
      ms(task.oursMs),
      ms(task.chartjsMs),
      ms(task.otherMs),
      ms(task.cpuMs),
      ms(task.oursCpuMs),
      ms(task.chartjsCpuMs),
      task.owner,
      task.topScript,
      task.topEvents,
    ]),
  );
  if (lighthouse) {
    process.stdout.write(`\nLighthouse ${lighthouse.version} mobile (devtools throttling), autostarted test\n`);
    printTable(
      ['performance', 'CLS', 'TBT ms', 'LCP ms', 'TTI ms', 'longest task ms'],
      [
        [
          `${lighthouse.performance}`,
          lighthouse.cls.toFixed(3),
          ms(lighthouse.tbtMs),
          ms(lighthouse.lcpMs),
          ms(lighthouse.ttiMs),
          ms(lighthouse.longestTaskMs),
        ],
      ],
    );
  }
} finally {
  await browser.close();
  await server.stop();
}

mkdirSync(resultsDir, { recursive: true });
writeFileSync(
  join(resultsDir, 'page.json'),
  `${JSON.stringify({ date: new Date().toISOString(), cpuSlowdown, query, runs: runRows, tasks: taskRows, lighthouse }, null, 2)}\n`,
);
const csv = (/** @type {unknown[][]} */ rows) =>
  `${rows.map((row) => row.map((cell) => JSON.stringify(cell ?? '')).join(',')).join('\n')}\n`;
writeFileSync(
  join(resultsDir, 'page.csv'),
  csv([
    [
      'width',
      'run',
      'cpu_slowdown',
      'test_ms',
      'cls',
      'ours_count',
      'ours_max_ms',
      'chartjs_count',
      'chartjs_max_ms',
      'other_count',
      'other_max_ms',
      'ours_cpu_max_ms',
      'chartjs_cpu_max_ms',
      'charts_on',
      'load_average',
    ],
    ...runRows.map((row) => [
      row.width,
      row.run,
      row.cpuSlowdown,
      Math.round(row.testMs),
      row.cls,
      row.summary.ours.count,
      Math.round(row.summary.ours.maxMs),
      row.summary.chartjs.count,
      Math.round(row.summary.chartjs.maxMs),
      row.summary.other.count,
      Math.round(row.summary.other.maxMs),
      Math.round(row.summary.ours.maxCpuMs),
      Math.round(row.summary.chartjs.maxCpuMs),
      row.chartsOn,
      row.loadAverage,
    ]),
  ]),
);
writeFileSync(
  join(resultsDir, 'page-tasks.csv'),
  csv([
    [
      'width',
      'run',
      'start_ms',
      'duration_ms',
      'ours_ms',
      'chartjs_ms',
      'other_ms',
      'cpu_ms',
      'ours_cpu_ms',
      'chartjs_cpu_ms',
      'owner',
      'top_script',
      'top_events',
    ],
    ...taskRows.map((task) => [
      task.width,
      task.run,
      Math.round(task.startMs),
      Math.round(task.durationMs),
      Math.round(task.oursMs),
      Math.round(task.chartjsMs),
      Math.round(task.otherMs),
      Math.round(task.cpuMs),
      Math.round(task.oursCpuMs),
      Math.round(task.chartjsCpuMs),
      task.owner,
      task.topScript,
      task.topEvents,
    ]),
  ]),
);
process.stdout.write('\nwrote bench/results/page.json, page.csv, page-tasks.csv\n');
