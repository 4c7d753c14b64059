import { expect, type Page, test } from '@playwright/test';

// The demo site as a site owner meets it after `npm start`: every page fits a phone, logs no error, says where it is
// in the site navigation and how to try the feature on one's own site, and shows its numbers with their units.

/** Each demo page, and the element its script marks `data-ready` once the page has shown what it measured. */
const demoPages: Record<string, string | null> = {
  '/demo/': null,
  '/demo/images.html': '#savings',
  '/demo/priority.html': '#offsets',
  '/demo/loader-libs.html': '#timings',
  '/demo/loader-libs-plain.html': '#timings',
  '/demo/loader-csp.html': '#timings',
  '/demo/loader-order.html': '#order-result',
  '/demo/loader-order-plain.html': '#order-result',
};

/** The pages of a feature a site can deploy, and the `npm run deploy` environment each one names. */
const featurePages: Record<string, string> = {
  '/demo/images.html': 'images',
  '/demo/priority.html': 'priority',
  '/demo/loader-libs.html': 'binast',
  '/demo/loader-libs-plain.html': 'binast',
  '/demo/loader-csp.html': 'binast',
};

/** Opens a page and waits until it has rendered its measurements, so late content counts too. */
async function open(page: Page, path: string) {
  await page.goto(path);
  const ready = demoPages[path];
  if (ready) await expect(page.locator(ready)).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
}

for (const path of Object.keys(demoPages)) {
  test(`${path} fits a 375 px screen without sideways scrolling and logs no error`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      // The ordering demos request a missing script on purpose (its error event is part of the test case; the page
      // says so): the browser logs its 404.
      if (message.type() === 'error' && !message.location().url.endsWith('/demo/loader-cases/missing.js'))
        errors.push(message.text());
    });
    await page.setViewportSize({ width: 375, height: 740 });
    await open(page, path);
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(errors).toEqual([]);
  });

  test(`${path} marks itself, and only itself, as the current page in the site navigation`, async ({ page }) => {
    await page.goto(path);
    const current = page.getByRole('navigation', { name: 'Site' }).locator('a[aria-current="page"]');
    await expect(current).toHaveCount(1);
    expect(await current.evaluate((a) => (a as HTMLAnchorElement).pathname)).toBe(path);
  });
}

for (const [path, environment] of Object.entries(featurePages)) {
  test(`${path} says how to try the feature on your own site`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Try it on your site' })).toBeVisible();
    await expect(page.locator('main')).toContainText(`npm run deploy -- --env ${environment}`);
  });
}

test('every number in the image and priority tables carries its unit', async ({ page }) => {
  for (const [path, table] of [
    ['/demo/images.html', '#savings'],
    ['/demo/priority.html', '#offsets'],
  ] as const) {
    await open(page, path);
    const numbers = await page.locator(`${table} td.number`).allTextContents();
    expect(numbers.length, path).toBeGreaterThan(0);
    for (const text of numbers) expect(text, path).toMatch(/^[\d,.]+\s(B|%)|^\d+%$/);
  }
});

for (const path of ['/demo/loader-order.html', '/demo/loader-order-plain.html']) {
  test(`${path} lists the order its scripts ran in and the events that fired`, async ({ page }) => {
    await open(page, path);
    const state = await page.evaluate(
      () => (window as unknown as { loaderCase: { order: string[]; events: string[] } }).loaderCase,
    );
    const lists = page.locator('#order-result ol');
    await expect(lists.nth(0).locator('li')).toHaveText(state.order);
    await expect(lists.nth(1).locator('li')).toHaveText(state.events);
    expect(state.events).toContain('error:missing');
  });
}
