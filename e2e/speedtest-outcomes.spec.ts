import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';

// How the speed page ends a run that is not a clean finish (Stop, a server that sends nothing), what it says about
// figures it did not measure, and how it reads its query. Small budgets: loopback runs at several Gbit/s.
const small = 'bytes=40000000&timeMs=2500&intervalMs=100&pings=6&maxDownBytes=10000000&maxUpBytes=5000000';

interface PartialResult {
  partial: { reason: string; missing: string[] } | null;
  download: { bitsPerSecond: { value: number } } | null;
  upload: unknown;
  latency: { downloadLoadedMs: { value: number } | null; uploadLoadedMs: { value: number } | null };
}

const partialOf = (page: Page) =>
  page
    .waitForFunction(() => window.__speedkitPartialResult, null, { timeout: 45_000 })
    .then((handle) => handle.jsonValue() as Promise<PartialResult>);

/** A relay that never answers: the loss phase spends its 10 s connect timeout, long enough to press Stop in it. */
async function fakeTurnRelay(page: Page): Promise<void> {
  await page.route('**/turn-creds', (route) =>
    route.fulfill({ json: { username: 'e2e', credential: 'e2e', urls: ['turn:127.0.0.1:9?transport=udp'] } }),
  );
}

test('Stop during the packet-loss step keeps the finished phases as a partial result: exportable, selectable, saved', async ({
  page,
}) => {
  await fakeTurnRelay(page);
  await page.goto(`/?${small}`);
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'loss', null, { timeout: 45_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  const partial = await partialOf(page);
  expect(partial.partial).toEqual({ reason: 'stopped', message: null, missing: ['loss'] });
  expect(partial.download?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(partial.latency.uploadLoadedMs?.value).toBeGreaterThan(0);
  expect(await page.evaluate(() => window.__speedkitResult)).toBeUndefined();

  await expect(page.locator('#status')).toHaveText(
    'Stopped: the finished phases are a partial result (not measured: packet loss).',
  );
  // Responsiveness comes from the pings under both loads, which finished.
  await expect(page.locator('.card[data-metric="rpm"] [data-value]')).toHaveText(/^\d+\s*RPM$/);
  await expect(page.getByRole('button', { name: 'Download CSV' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Download JSON' })).toBeEnabled();
  await expect(page.locator('#history tbody tr').first()).toContainText('(partial)');

  const card = page.locator('.card[data-metric="download"]');
  await card.click();
  await expect(card).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#details')).toContainText('Partial result: the run was stopped before its packet loss');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/^speedkit-.*-partial\.csv$/);
  const csv = await readFile((await download.path()) ?? '', 'utf8');
  expect(csv).toMatch(/\r\nsummary,.*,partial,stopped,.*before its packet loss finished/);
});

test('Stop during the upload crosses out its live reading and keeps the download as the result', async ({
  page,
}, testInfo) => {
  await page.goto('/?autostart=0&bytes=2000000000&timeMs=6000&intervalMs=100&pings=4&maxDownBytes=5000000');
  await page.getByRole('button', { name: 'Start test' }).click();
  const upload = page.locator('.card[data-metric="upload"]');
  await expect(upload).toHaveAttribute('data-state', 'live', { timeout: 30_000 });
  await page.getByRole('button', { name: 'Stop' }).click();
  const partial = await partialOf(page);
  expect(partial.partial?.missing).toEqual(['upload', 'loss']);
  expect(partial.upload).toBeNull();
  await expect(upload).toHaveAttribute('data-state', 'stopped');
  await expect(upload.locator('[data-note]')).toHaveText('stopped: not a result');
  expect(await upload.locator('.card-value').evaluate((element) => getComputedStyle(element).textDecorationLine)).toBe(
    'line-through',
  );
  await expect(page.locator('.card[data-metric="download"]')).toHaveAttribute('data-state', 'final');
  await expect(page.locator('#status')).toContainText('Crossed-out figures are not results.');
  await expect(page.locator('[data-experience="videoCalls"]')).toHaveText('Not measured');
  await page.screenshot({ path: testInfo.outputPath('stopped-in-upload.png'), fullPage: true });
});

test('a server that sends no data fails the download with a message instead of reporting 0 kbps', async ({ page }) => {
  // Every download request with a body is held: the server "answers" nothing for 30 s. Pings (bytes=0) pass.
  await page.route(/\/__down\?bytes=[1-9]/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await route.continue().catch(() => undefined);
  });
  await page.goto('/?timeMs=2000&pings=4&directions=download');
  const error = await page.waitForFunction(() => window.__speedkitError, null, { timeout: 30_000 });
  expect(await error.jsonValue()).toMatch(/^the server sent no data in \d+\.\d s \(download\)$/);
  await expect(page.locator('#status')).toContainText('no bytes moved, so there is no rate to report');
  // No figure, and the card says why (the run measured nothing else, so it fails as a whole).
  const downloadCard = page.locator('.card[data-metric="download"]');
  await expect(downloadCard).toHaveAttribute('data-state', 'failed');
  await expect(downloadCard.locator('[data-note]')).toHaveText('failed: no data got through');
  // The loaded pings of a download that moved nothing measured no load.
  await expect(page.locator('.card[data-metric="loadedDown"] [data-value]')).toHaveText('—');
  const partial = await partialOf(page);
  expect(partial.download).toBeNull();
  expect(partial.latency.downloadLoadedMs).toBeNull();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});

test('a test autostarted in a background tab waits until the tab is shown, then runs', async ({ page }) => {
  // A page opened in a background tab is hidden from its start; no visibilitychange comes until it is shown.
  await page.addInitScript(() => {
    let state: DocumentVisibilityState = 'hidden';
    Object.defineProperty(Document.prototype, 'visibilityState', { configurable: true, get: () => state });
    Object.defineProperty(Document.prototype, 'hidden', { configurable: true, get: () => state === 'hidden' });
    (window as unknown as { __show: () => void }).__show = () => {
      state = 'visible';
      document.dispatchEvent(new Event('visibilitychange'));
    };
  });
  const measured: string[] = [];
  page.on('request', (request) => {
    if (/\/__(down|up)/.test(request.url())) measured.push(request.url());
  });
  await page.goto(`/?${small}`);
  await expect(page.locator('#status')).toHaveText(/^Waiting for this tab to be shown/);
  await expect(page.getByRole('button', { name: 'Resume' })).toBeVisible();
  await page.waitForTimeout(1000);
  expect(measured).toEqual([]);
  expect(await page.evaluate(() => window.__speedkitProgress)).toBeUndefined();
  await page.evaluate(() => (window as unknown as { __show: () => void }).__show());
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });
  expect(measured.length).toBeGreaterThan(0);
  await expect(page.locator('#status')).toHaveText(/^Done in/);
});

test('bad query values are named in a notice with what was used, and autostart=no waits', async ({
  page,
}, testInfo) => {
  await page.goto('/?autostart=no&bytes=10MB&timeMs=0&pings=0');
  const notice = page.locator('#query-notice');
  await expect(notice).toBeVisible();
  await expect(notice.locator('li')).toHaveText([
    'bytes=10MB is not a number: used the default, 300000000 bytes.',
    'timeMs=0 is below the minimum of 1000 ms: used 1000 ms.',
    'pings=0 is below the minimum of 2 pings: used 2 pings.',
  ]);
  await page.waitForTimeout(500);
  await expect(page.locator('#status')).toHaveText('Ready.');
  expect(await page.evaluate(() => window.__speedkitProgress)).toBeUndefined();
  await page.screenshot({ path: testInfo.outputPath('query-notice.png') });
});

test('an upload-only run says what it did not measure, and its notice names the button as it now reads', async ({
  page,
}) => {
  await page.goto(`/?autostart=0&${small}&directions=upload`);
  await expect(page.locator('#query-notice')).toBeHidden();
  await page.getByRole('button', { name: 'Start test' }).click();
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });
  for (const metric of ['download', 'loadedDown']) {
    await expect(page.locator(`.card[data-metric="${metric}"] [data-note]`)).toHaveText('not measured');
  }
  await expect(page.locator('[data-experience="streaming"]')).toHaveText('Not measured');
  await expect(page.locator('[data-experience="videoCalls"]')).toHaveText('Not measured');
  await expect(page.locator('[data-experience="gaming"]')).not.toHaveText(/Not measured|—/);
  await expect(page.locator('#notice-text')).toContainText('Press Start again when you are ready.');
});

test('the idle latency is marked provisional until the pings after the download are in', async ({ page }) => {
  await page.goto(`/?${small}&directions=download`);
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'download', null, { timeout: 20_000 });
  const latency = page.locator('.card[data-metric="latency"]');
  await expect(latency).toHaveAttribute('data-state', 'provisional');
  await expect(latency.locator('[data-note]')).toContainText('first reading (3 pings)');
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });
  await expect(latency).toHaveAttribute('data-state', 'final');
  await expect(page.locator('.card[data-metric="jitter"] [data-note]')).toContainText('from 6 idle pings');
  // An autostarted run's notice no longer tells the reader to press Stop.
  await expect(page.locator('#notice-text')).toContainText('Press Start again when you are ready.');
});
