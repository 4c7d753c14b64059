// One page load in a fresh browser context (cold cache): screen frames from the CDP screencast, navigation and paint
// timing, LCP, layout shifts, long tasks, and every response's bytes from CDP's Network domain.
import { readFileSync } from 'node:fs';
import { bytesByClass, cumulativeLayoutShift, totalBlockingTime } from './page-metrics.mjs';

const observerScript = readFileSync(new URL('./observer.js', import.meta.url), 'utf8');
/** After load, the page counts as settled once no frame has arrived and no request was open for this long. */
const quietMs = 1500;

/**
 * @typedef {{ name: string, viewport: { width: number, height: number }, deviceScaleFactor: number,
 *   isMobile: boolean, cpuSlowdown: number }} BrowserProfile
 * @typedef {{ timeMs: number, jpeg: Buffer }} Frame
 */

/**
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url
 * @param {BrowserProfile} profile
 * @param {{ timeoutMs: number }} limits
 */
export async function loadPage(browser, url, profile, { timeoutMs }) {
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
    ignoreHTTPSErrors: true,
  });
  try {
    await context.addInitScript(observerScript);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    /** @type {Map<string, { cdpType: string, mimeType: string, encodedBytes: number, url: string, status: number, protocol?: string }>} */
    const requests = new Map();
    let open = 0;
    let lastActivityMs = performance.now();
    await cdp.send('Network.enable');
    cdp.on('Network.requestWillBeSent', ({ requestId, type, request }) => {
      if (!requests.has(requestId)) open++;
      requests.set(requestId, { cdpType: type ?? 'Other', mimeType: '', encodedBytes: 0, url: request.url, status: 0 });
      lastActivityMs = performance.now();
    });
    cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
      const entry = requests.get(requestId);
      if (!entry) return;
      entry.cdpType = type;
      entry.mimeType = response.mimeType ?? '';
      entry.status = response.status;
      entry.protocol = response.protocol;
    });
    /** @param {{ requestId: string, encodedDataLength?: number }} event */
    const finish = ({ requestId, encodedDataLength }) => {
      const entry = requests.get(requestId);
      if (entry && encodedDataLength !== undefined) entry.encodedBytes = encodedDataLength;
      open = Math.max(0, open - 1);
      lastActivityMs = performance.now();
    };
    cdp.on('Network.loadingFinished', finish);
    cdp.on('Network.loadingFailed', finish);
    if (profile.cpuSlowdown > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });

    /** @type {{ epochMs: number, jpeg: Buffer }[]} */
    const captured = [];
    cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
      captured.push({ epochMs: (metadata.timestamp ?? Date.now() / 1000) * 1000, jpeg: Buffer.from(data, 'base64') });
      lastActivityMs = performance.now();
      cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
    });
    await cdp.send('Page.startScreencast', {
      format: 'jpeg',
      quality: 70,
      maxWidth: Math.min(profile.viewport.width, 683),
      maxHeight: Math.min(profile.viewport.height, 844),
      everyNthFrame: 1,
    });
    const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    if (!response) throw new Error(`no response for ${url}`);
    if (response.status() >= 400) throw new Error(`the page answered HTTP ${response.status()} (${url})`);
    const loadedMs = performance.now();
    while (performance.now() - loadedMs < timeoutMs) {
      if (open === 0 && performance.now() - lastActivityMs >= quietMs) break;
      await page.waitForTimeout(100);
    }
    const timing = await page.evaluate(() => {
      const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
      return {
        timeOriginEpochMs: performance.timeOrigin,
        ttfbMs: nav.responseStart,
        domContentLoadedMs: nav.domContentLoadedEventStart,
        loadMs: nav.loadEventStart,
        protocol: nav.nextHopProtocol,
        // @ts-expect-error -- filled by observer.js
        record: window.__speedPage,
      };
    });
    await cdp.send('Page.stopScreencast');
    const frames = captured
      .map((frame) => ({ timeMs: frame.epochMs - timing.timeOriginEpochMs, jpeg: frame.jpeg }))
      .filter((frame) => frame.timeMs >= 0)
      .sort((a, b) => a.timeMs - b.timeMs);
    const { record } = timing;
    const fcpMs = record.fcpMs ?? Number.NaN;
    const lcp = record.lcp.at(-1);
    const all = [...requests.values()];
    return {
      protocol: timing.protocol,
      ttfbMs: timing.ttfbMs,
      fcpMs,
      lcpMs: lcp?.timeMs ?? Number.NaN,
      lcpElement: lcp?.element ?? '',
      cls: cumulativeLayoutShift(record.shifts),
      tbtMs: totalBlockingTime(record.longTasks, fcpMs),
      domContentLoadedMs: timing.domContentLoadedMs,
      loadMs: timing.loadMs,
      byClass: bytesByClass(all),
      totalBytes: all.reduce((sum, r) => sum + r.encodedBytes, 0),
      requests: all.length,
      marks: /** @type {{ name: string, timeMs: number }[]} */ (record.marks),
      failedRequests: all.filter((r) => r.status === 0 || r.status >= 400).map((r) => `${r.status} ${r.url}`),
      frames,
    };
  } finally {
    await context.close();
  }
}
