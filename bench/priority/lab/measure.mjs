// One page load in Chromium with a trace: Speed Index (colour histograms) and Perceptual Speed Index (SSIM, which
// also sees refinement of an image already shown) from the trace's screenshots via speedline-core, bytes and load
// time from Navigation/Resource Timing. LAB_DEBUG=1 also prints per-image timing and the visual progress curve, and
// saves the screenshots under $TMPDIR/prio-frames/<port>/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import speedline from 'speedline-core';

/** @typedef {import('speedline-core').TraceEvent & { args: { data?: { isLoadingMainFrame?: boolean } } }} TraceEvent */

const traceCategories = [
  '-*',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'disabled-by-default-devtools.timeline.frame',
  'disabled-by-default-devtools.screenshot',
  'blink.user_timing',
  'loading',
];

/** @param {import('@playwright/test').Browser} browser @param {string} url */
export async function measure(browser, url) {
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
  try {
    const page = await context.newPage();
    await browser.startTracing(page, { screenshots: true, categories: traceCategories });
    await page.goto(url, { waitUntil: 'load', timeout: 60_000 });
    await page.waitForTimeout(500); // let the last paint land in the trace
    const stats = await page.evaluate(() => {
      const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
      const resources = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
      return {
        loadMs: nav.loadEventStart,
        protocol: nav.nextHopProtocol,
        bodyBytes: resources.reduce((sum, e) => sum + e.encodedBodySize, 0) + nav.encodedBodySize,
        images: resources.length,
        timing: resources.map(
          (e) =>
            `${e.name.split('/').pop()} request ${Math.round(e.requestStart)} first byte ` +
            `${Math.round(e.responseStart)} end ${Math.round(e.responseEnd)}`,
        ),
      };
    });
    const trace = JSON.parse((await browser.stopTracing()).toString());
    /** @type {TraceEvent[]} */
    const events = trace.traceEvents ?? trace;
    const nav = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
    // image-ssim throws when Chromium emits screenshots of different sizes in one trace: keep SI, drop pSI then.
    const result = await speedline(events, { timeOrigin: nav?.ts, include: 'all' }).catch(() =>
      speedline(events, { timeOrigin: nav?.ts, include: 'speedIndex' }),
    );
    if (process.env.LAB_DEBUG) debugDump(url, events, nav?.ts ?? 0, result, stats.timing);
    const { timing, ...kept } = stats;
    return {
      speedIndexMs: result.speedIndex,
      perceptualSpeedIndexMs: result.perceptualSpeedIndex ?? Number.NaN,
      firstVisualMs: result.first,
      visuallyCompleteMs: result.complete,
      ...kept,
    };
  } finally {
    await context.close();
  }
}

/**
 * @param {string} url @param {TraceEvent[]} events @param {number} originTs
 * @param {Pick<import('speedline-core').Output, 'frames' | 'beginning'>} result @param {string[]} timing
 */
function debugDump(url, events, originTs, result, timing) {
  process.stdout.write(`    ${timing.join('\n    ')}\n`);
  const progress = result.frames.map(
    (f) => `${Math.round(f.getTimeStamp() - result.beginning)}:${Math.round(f.getProgress())}`,
  );
  process.stdout.write(`    visual progress (ms:%) ${progress.join(' ')}\n`);
  const dir = join(tmpdir(), 'prio-frames', new URL(url).port);
  mkdirSync(dir, { recursive: true });
  for (const e of events.filter((x) => x.name === 'Screenshot' && x.args?.snapshot)) {
    const atMs = String(Math.round((e.ts - originTs) / 1000)).padStart(5, '0');
    writeFileSync(join(dir, `${atMs}.jpg`), Buffer.from(e.args.snapshot ?? '', 'base64'));
  }
}
