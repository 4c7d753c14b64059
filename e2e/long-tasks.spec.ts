import { expect, test } from '@playwright/test';
import { longTasks, pageMainThread, type TraceEvent, threadSamples } from '../bench/page/trace-tasks.mjs';

// Issue 18's goal "no task over 50 ms from our code", checked on a short autostarted run in a 390 px mobile context
// at Lighthouse's 4× CPU throttling. The machine this runs on is shared, so wall time says little: a task is judged
// by its thread CPU time (the trace's `tdur`: other processes cannot inflate it, and Chromium's throttle spins on the
// thread, so it is the task's length at 4× on a core of its own), and only the share of it whose CPU samples were in
// our bundle's scripts (by URL) counts. `npm run bench:page` is the full measurement (default budget, both widths,
// Lighthouse).
// One retry: on this shared 2-core machine the start-up module task sat near the budget (32–56 ms of our CPU at 4× in
// 12 local runs on 2026-11-26, 3 of them over 50 ms). Starting the /meta fetch cost 15–30 ms of it and now runs
// in a task of its own; the modulepreload polyfill cost ~5 ms and is gone. In 6 runs after both, the highest share of
// ours in any task was 21 ms. The retry stays for the machine's noise; a task over budget in both attempts still
// fails.
test.describe.configure({ retries: 1 });

const small = 'bytes=20000000&timeMs=2000&intervalMs=100&pings=10&maxDownBytes=5000000&maxUpBytes=3000000';
const cpuSlowdown = 4;
const budgetMs = 50;
const chartUrl = /\/assets\/chartjs-[^/]*\.js$/;

test('a throttled mobile run has no task in which our scripts or Chart.js take more than 50 ms', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const origin = new URL(baseURL ?? '').origin;
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      'disabled-by-default-v8.cpu_profiler',
    ],
  });
  await page.goto(`/?${small}`);
  await page.waitForFunction(() => window.__speedkitResult ?? window.__speedkitError, null, { timeout: 90_000 });
  expect(await page.evaluate(() => window.__speedkitError)).toBeUndefined();
  // The charts are drawn after the result: their tasks count too.
  await page.waitForFunction(() => window.__speedkitChartColors !== undefined, null, { timeout: 30_000 });
  await page.waitForTimeout(500);
  const chartThread = await page.evaluate(() => window.__speedkitChartThread);
  const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
  await context.close();

  // Chromium runs the chart worker (OffscreenCanvas, module workers): Chart.js must not have run on the page's thread.
  expect(chartThread).toBe('worker');

  // The attribution saw the page: its main thread, with CPU samples in our bundle and none in Chart.js's chunk.
  const thread = pageMainThread(trace.traceEvents, origin);
  expect(thread).not.toBeNull();
  const urls = new Set(threadSamples(trace.traceEvents, thread ?? { pid: 0, tid: 0 }).map((sample) => sample.url));
  expect([...urls].some((url) => /\/assets\/main-[^/]*\.js$/.test(url))).toBe(true);
  expect([...urls].filter((url) => chartUrl.test(url))).toEqual([]);

  const tasks = longTasks(trace.traceEvents, { origin, chartUrl });
  // Ours, and Chart.js's in case it ever runs on the page's thread again (the fallback draws one chart per task).
  const ours = tasks.filter((task) => task.oursCpuMs > budgetMs || task.chartjsCpuMs > budgetMs);
  const explain = (list: typeof tasks) =>
    list.map(
      (task) =>
        `${task.durationMs.toFixed(0)} ms at ${(task.startMs / 1000).toFixed(1)} s: ours ${task.oursCpuMs.toFixed(0)} ms, Chart.js ${task.chartjsCpuMs.toFixed(0)} ms of ${task.cpuMs.toFixed(0)} ms CPU (${task.topScript}; ${task.topEvents})`,
    );
  console.log(`long tasks (wall > 50 ms on this machine): ${tasks.length}\n${explain(tasks).join('\n')}`);
  expect(explain(ours)).toEqual([]);
});
