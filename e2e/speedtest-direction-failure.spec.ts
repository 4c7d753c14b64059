import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';

// A direction that gets nothing through must not throw away the other one: a corporate proxy or a browser extension
// that blocks or holds upload bodies leaves the download and the latency measured, and the page says the upload failed
// and why. Small budgets: loopback runs at several Gbit/s.
const small = 'timeMs=2000&intervalMs=100&pings=4&bytes=40000000&maxDownBytes=10000000&upload=http';

interface Result {
  download: { bitsPerSecond: { value: number } } | null;
  upload: unknown;
  directionFailures: { download: unknown; upload: { reason: string; message: string } | null };
  latency: { idleMs: { value: number }; uploadLoadedMs: unknown };
  partial: unknown;
}

const resultOf = (page: Page) =>
  page
    .waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 })
    .then((handle) => handle.jsonValue() as Promise<Result>);

/** No TURN relay: the run ends after the transfers (the loss step is not what these tests are about). */
const withoutRelay = (page: Page) => page.route('**/turn-creds', (route) => route.fulfill({ status: 404, body: '' }));

test('uploads blocked as an extension blocks them: the download and latency stand, the upload says it failed', async ({
  page,
}, testInfo) => {
  await withoutRelay(page);
  // What an ad blocker or a policy extension does to a request: the browser refuses it (net::ERR_BLOCKED_BY_CLIENT).
  await page.route('**/__up?**', (route) => route.abort('blockedbyclient'));
  await page.goto(`/?${small}`);
  const result = await resultOf(page);
  expect(result.partial).toBeNull();
  expect(result.download?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(result.latency.idleMs.value).toBeGreaterThan(0);
  expect(result.upload).toBeNull();
  expect(result.directionFailures.upload).toMatchObject({ reason: 'error', message: expect.stringContaining('/__up') });
  expect(await page.evaluate(() => window.__speedkitError)).toBeUndefined();

  const upload = page.locator('.card[data-metric="upload"]');
  await expect(upload).toHaveAttribute('data-state', 'failed');
  await expect(upload.locator('[data-note]')).toHaveText('failed: its requests failed');
  await expect(page.locator('.card[data-metric="download"]')).toHaveAttribute('data-state', 'final');
  await expect(page.locator('.card[data-metric="loadedUp"] [data-note]')).toHaveText('not measured (upload failed)');
  await expect(page.locator('#status')).toContainText('Upload failed: could not reach');
  await expect(page.locator('#status')).toContainText('The other figures stand.');
  await expect(page.locator('#announcer')).toContainText('upload failed');
  await expect(page.locator('[data-experience="videoCalls"]')).toHaveText('Unknown');
  await expect(page.locator('[data-quality-note="videoCalls"]')).toHaveText('upload failed');
  await expect(page.locator('[data-experience="streaming"]')).not.toHaveText(/Unknown|Not measured|—/);
  await expect(page.locator('#history tbody tr').first().locator('td').nth(2)).toHaveText('failed');

  await upload.click();
  await expect(page.locator('#details')).toContainText('Upload failed: could not reach');

  const downloadPromise = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const csv = await readFile((await (await downloadPromise).path()) ?? '', 'utf8');
  expect(csv).toMatch(/\r\nsummary,(,)*upload,,,,bit\/s,,,"?failed \(error\): could not reach/);
  await page.screenshot({ path: testInfo.outputPath('upload-blocked.png'), fullPage: true });
});

test('upload bodies held by a proxy (nothing confirmed): the upload fails with "no data", the run finishes', async ({
  page,
}) => {
  await withoutRelay(page);
  await page.route('**/__up?**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await route.continue().catch(() => undefined);
  });
  await page.goto(`/?${small}`);
  const result = await resultOf(page);
  expect(result.download?.bitsPerSecond.value).toBeGreaterThan(10e6);
  expect(result.directionFailures.upload).toMatchObject({ reason: 'no-data' });
  expect(result.directionFailures.upload?.message).toMatch(/^the server received no data in \d+\.\d s \(upload\)$/);
  // Pings while the upload moved nothing measured no load.
  expect(result.latency.uploadLoadedMs).toBeNull();
  await expect(page.locator('.card[data-metric="upload"] [data-note]')).toHaveText('failed: no data got through');
  await page.unrouteAll({ behavior: 'ignoreErrors' });
});
