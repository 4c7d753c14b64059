import { expect, type Page, test } from '@playwright/test';

// The speed page with a keyboard only, on a phone-sized screen, and for a screen reader: every control reachable and
// operable with a visible focus, announcements in a polite live region, charts with a text alternative, nothing
// wider than 375 px. Small budgets: loopback runs at several Gbit/s.
const small = 'timeMs=2500&intervalMs=100&pings=6&bytes=40000000&maxDownBytes=10000000&upload=http';

/** No TURN relay: the run ends after the transfers. */
const withoutRelay = (page: Page) => page.route('**/turn-creds', (route) => route.fulfill({ status: 404, body: '' }));

/** Presses Tab until the element matching `selector` has focus (at most `limit` presses). */
async function tabTo(page: Page, selector: string, limit = 40): Promise<void> {
  for (let press = 0; press < limit; press++) {
    await page.keyboard.press('Tab');
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
  }
  throw new Error(`${selector} was not reached with ${limit} presses of Tab`);
}

/** The focus ring of the focused element: a 3 px outline, never none. */
const focusOutline = (page: Page) =>
  page.evaluate(() => {
    const style = getComputedStyle(document.activeElement as Element);
    return `${style.outlineStyle} ${style.outlineWidth}`;
  });

test('keyboard only: start, stop, start again, open a figure and export, each with a visible focus', async ({
  page,
}) => {
  await withoutRelay(page);
  await page.goto(`/?autostart=0&${small}`);
  await tabTo(page, '#start');
  expect(await focusOutline(page)).toBe('solid 3px');
  await page.keyboard.press('Enter');
  await expect(page.locator('#start')).toHaveText('Stop');
  await page.keyboard.press('Space');
  await expect(page.locator('#start')).toHaveText('Start again');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });

  // Focus is still on the button; the cards follow it in the tab order.
  await tabTo(page, '.card[data-metric="download"]');
  expect(await focusOutline(page)).toBe('solid 3px');
  await page.keyboard.press('Enter');
  await expect(page.locator('.card[data-metric="download"]')).toHaveAttribute('aria-expanded', 'true');
  await expect(page.locator('#details h3')).toHaveText('Download');
  // A screen reader is told where the details went; focus stays on the card.
  await expect(page.locator('#announcer')).toHaveText('Download: details shown below the cards.');

  await tabTo(page, '#export-csv');
  expect(await focusOutline(page)).toBe('solid 3px');
  const download = page.waitForEvent('download');
  await page.keyboard.press('Enter');
  expect((await download).suggestedFilename()).toMatch(/^speedkit-.*\.csv$/);
});

test('at 375 px nothing scrolls sideways, the status keeps its data count, and the wide table scrolls by keyboard', async ({
  browser,
}) => {
  const context = await browser.newContext({ viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  await withoutRelay(page);
  await page.goto(`/?${small}`);
  await page.waitForFunction(() => window.__speedkitProgress?.phase === 'download', null, { timeout: 30_000 });
  // The running status ("Download · 2.62 Gbps · 1 stream · 298.0 MB used") fits: it once ended in "298.0 …".
  await expect(page.locator('#status')).toContainText('used');
  const clipped = await page
    .locator('#status')
    .evaluate((status) => status.scrollWidth > status.clientWidth + 1 || status.scrollHeight > status.clientHeight + 1);
  expect(clipped).toBe(false);
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });
  await page.locator('.card[data-metric="download"]').click();
  for (const summary of await page.locator('details > summary').all()) await summary.click();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  // The past-runs table is wider than the phone: its scrolling box takes focus, so arrow keys can scroll it.
  const scroller = page.locator('#history .table-scroll');
  await expect(scroller).toHaveAttribute('tabindex', '0');
  await expect(scroller).toHaveAttribute('aria-label', 'Past runs table');
  await context.close();
});

test('charts have a text alternative and progress is announced politely', async ({ page }) => {
  await withoutRelay(page);
  await page.goto(`/?${small}`);
  const announcer = page.locator('#announcer');
  await expect(announcer).toHaveAttribute('role', 'status');
  await expect(announcer).toHaveAttribute('aria-live', 'polite');
  await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 });
  await expect(announcer).toHaveText(/^Test finished: download .+, upload .+, idle latency .+\.$/);
  for (const id of ['chart-download', 'chart-upload', 'chart-latency', 'chart-goodput']) {
    const canvas = page.locator(`#${id}`);
    await expect(canvas).toHaveAttribute('role', 'img');
    const describedBy = await canvas.getAttribute('aria-describedby');
    await expect(page.locator(`#${describedBy}`)).toHaveText(/\d/);
  }
  await expect(page.locator('#chart-download-summary')).toHaveText(/^Download: \d+ requests? \(.+\), per stream .+\.$/);
  await expect(page.locator('#chart-latency-summary')).toContainText('pings idle');
});
