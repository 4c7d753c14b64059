import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';

// Loopback runs at several Gbit/s: small budgets keep every run to a few seconds.
const smallRun = '/?bytes=40000000&timeMs=2500&intervalMs=100&pings=10&maxDownBytes=10000000&maxUpBytes=5000000';

interface PublishedResult {
  durationMs: number;
  download: { bitsPerSecond: { value: number; level: string }; clientBytes: number } | null;
  upload: { bitsPerSecond: { value: number }; clientBytes: number; serverBytes: number; transport?: string } | null;
  latency: {
    idleMs: { value: number; sampleCount: number };
    jitterMs: number;
    stalledPings: number;
    downloadLoadedMs: { value: number } | null;
  };
  rpm: { overall: number | null };
  totalBytes: { download: number; upload: number };
  samples: { kind: string; load: string; timingSource: string }[];
}

const resultOf = (page: Page) =>
  page
    .waitForFunction(
      () => window.__speedkitResult ?? (window.__speedkitError ? { error: window.__speedkitError } : null),
      null,
      {
        timeout: 45_000,
      },
    )
    .then((handle) => handle.jsonValue() as Promise<PublishedResult>);

test('runs a full small-budget test, shows every headline figure and exports the samples as CSV', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(smallRun);
  const result = await resultOf(page);
  expect(result).not.toHaveProperty('error');

  // Sane figures from a real run over loopback.
  expect(result.download?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(result.upload?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(result.latency.idleMs.value).toBeGreaterThan(0);
  expect(result.latency.idleMs.value).toBeLessThan(500);
  expect(result.latency.idleMs.sampleCount).toBe(10);
  expect(result.latency.jitterMs).toBeGreaterThanOrEqual(0);
  // Pings 200 ms above the median (a lost packet resent) are counted, not put into jitter.
  expect(Number.isInteger(result.latency.stalledPings)).toBe(true);
  expect(result.latency.stalledPings).toBeLessThan(result.latency.idleMs.sampleCount);
  expect(result.rpm.overall).toBeGreaterThan(0);
  // The budget bounds what the test may use, and the server saw every completed upload byte.
  expect(result.totalBytes.download).toBeLessThanOrEqual(40_000_000);
  expect(result.totalBytes.upload).toBeLessThanOrEqual(40_000_000);
  expect(result.upload?.serverBytes).toBe(result.upload?.clientBytes);
  // On loopback (a path shorter than 30 ms) uploads are HTTP requests; sockets are for long paths.
  expect(result.upload?.transport).toBe('http');
  expect(result.samples.some((sample) => sample.timingSource === 'resource-timing')).toBe(true);

  for (const metric of ['download', 'upload', 'latency', 'jitter', 'loadedDown', 'loadedUp', 'rpm']) {
    await expect(page.locator(`.card[data-metric="${metric}"] [data-value]`)).toHaveText(
      /^\d[\d.]*\s*(Gbps|Mbps|kbps|ms|RPM)$/,
    );
  }
  await expect(page.locator('#status')).toContainText('Done in');
  await expect(page.locator('[data-experience="gaming"]')).not.toHaveText('—');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^speedkit-.*\.csv$/);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  const rows = csv
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(','));
  expect(rows[0]?.slice(0, 3)).toEqual(['record', 'direction', 'load']);
  const requestRows = rows.slice(1).filter((row) => row[0] === 'ping' || row[0] === 'transfer');
  expect(requestRows).toHaveLength(result.samples.length);
  for (const row of requestRows) expect(row).toHaveLength(rows[0]?.length ?? 0);
  const kinds = new Set(requestRows.map((row) => row[0]));
  expect(kinds).toEqual(new Set(['ping', 'transfer']));
  expect(requestRows.every((row) => Number.isFinite(Number(row[5])))).toBe(true);

  await page.screenshot({ path: testInfo.outputPath('speedtest-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  // No horizontal scrolling on a phone, once the charts have followed the resize.
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  // The chart worker redraws at the new size a moment later (its canvases are stretched until then).
  await expect
    .poll(() =>
      page.evaluate(() =>
        Array.from(document.querySelectorAll<HTMLCanvasElement>('.charts canvas')).every(
          (canvas) =>
            window.__speedkitChartThread !== 'worker' ||
            canvas.dataset.drawnWidth === String(Math.floor(canvas.parentElement?.getBoundingClientRect().width ?? 0)),
        ),
      ),
    )
    .toBe(true);
  await page.screenshot({ path: testInfo.outputPath('speedtest-narrow.png'), fullPage: true });
});

test('uploads over WebSockets when asked (?upload=websocket), over HTTP requests when the socket fails', async ({
  page,
}) => {
  const uploadOnly = '/?bytes=20000000&timeMs=2000&intervalMs=100&pings=4&maxUpBytes=5000000&directions=upload';
  await page.goto(`${uploadOnly}&upload=websocket`);
  const sockets = await resultOf(page);
  expect(sockets).not.toHaveProperty('error');
  expect(sockets.upload?.transport).toBe('websocket');
  expect(sockets.upload?.bitsPerSecond.value).toBeGreaterThan(10e6);
  // The bytes the server reported are the bytes counted; what was still queued in the page is not.
  expect(sockets.upload?.serverBytes).toBe(sockets.upload?.clientBytes);
  expect(sockets.upload?.clientBytes).toBeLessThanOrEqual(20_000_000);

  // A proxy that refuses WebSockets: the socket closes before its first report, and the same run goes on over HTTP.
  await page.routeWebSocket(/\/__up-ws/, (socket) => socket.close({ code: 1011, reason: 'refused' }));
  await page.goto(`${uploadOnly}&upload=websocket`);
  const refused = await resultOf(page);
  expect(refused).not.toHaveProperty('error');
  expect(refused.upload?.transport).toBe('http');
  expect(refused.upload?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(refused.upload?.serverBytes).toBe(refused.upload?.clientBytes);
});

test('shows average, median, min, max, p90 and count for a metric chosen with the keyboard', async ({ page }) => {
  await page.goto(`${smallRun}&directions=download`);
  await resultOf(page);
  const card = page.locator('.card[data-metric="latency"]');
  await card.focus();
  await page.keyboard.press('Enter');
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  const details = page.locator('#details');
  for (const term of ['Headline', 'Average', 'Median', 'Minimum', 'Maximum', '90th percentile', 'Samples']) {
    await expect(details.getByText(term, { exact: true })).toBeVisible();
  }
  await expect(details).toContainText('Headline = median of 10 idle pings.');
  await expect(details.locator('dt', { hasText: 'Samples' }).locator('+ dd')).toHaveText('10');
});

test('stops on request: no measurement request is sent after Stop', async ({ page }) => {
  await page.goto('/?autostart=0&bytes=2000000000&timeMs=20000&maxDownBytes=2000000');
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'download', null, { timeout: 20_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.locator('#status')).toContainText('Stopped');
  const late: string[] = [];
  page.on('request', (request) => {
    if (/\/__(down|up)/.test(request.url())) late.push(request.url());
  });
  await page.waitForTimeout(1000);
  expect(late).toEqual([]);
  expect(await page.evaluate(() => window.__speedkitResult)).toBeUndefined();
});

test('pauses while the tab is hidden and finishes after it is visible again', async ({ page }) => {
  await page.goto(
    '/?autostart=0&bytes=30000000&timeMs=2000&intervalMs=100&pings=5&maxDownBytes=2000000&maxUpBytes=2000000',
  );
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'download', null, { timeout: 20_000 });
  const setVisibility = (state: string) =>
    page.evaluate((value) => {
      Object.defineProperty(document, 'visibilityState', { value, configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, state);
  await setVisibility('hidden');
  await expect(page.locator('#status')).toContainText('Paused');
  const whilePaused: string[] = [];
  const listener = (request: { url: () => string }) => {
    if (/\/__(down|up)/.test(request.url())) whilePaused.push(request.url());
  };
  page.on('request', listener);
  await page.waitForTimeout(800);
  page.off('request', listener);
  expect(whilePaused).toEqual([]);
  await setVisibility('visible');
  const result = (await resultOf(page)) as PublishedResult;
  expect(result.download?.bitsPerSecond.value).toBeGreaterThan(0);
  expect(result.upload?.bitsPerSecond.value).toBeGreaterThan(0);
});

test('the unmodified @cloudflare/speedtest finishes against our endpoints with sane numbers', async ({ page }) => {
  await page.goto('/baseline.html?preset=small');
  const handle = await page.waitForFunction(
    () => window.__baselineResult ?? (window.__baselineError ? { error: window.__baselineError } : null),
    null,
    { timeout: 45_000 },
  );
  const baseline = (await handle.jsonValue()) as {
    summary: { download?: number; upload?: number; latency?: number; jitter?: number };
    bytes: { download: number; upload: number };
  };
  expect(baseline).not.toHaveProperty('error');
  expect(baseline.summary.download).toBeGreaterThan(1e6);
  expect(baseline.summary.upload).toBeGreaterThan(1e6);
  expect(baseline.summary.latency).toBeGreaterThan(0);
  expect(baseline.bytes).toEqual({ download: 3_300_000, upload: 3_300_000 });
});
