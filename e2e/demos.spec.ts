import { expect, type Page, test } from '@playwright/test';

// The demo site: an index, landmarks on every page, no 404 (favicon included), no redirect hop for .html, and
// numbers that show what each feature does.

const demoPages = [
  '/demo/',
  '/demo/images.html',
  '/demo/priority.html',
  '/demo/loader-libs.html',
  '/demo/loader-libs-plain.html',
  '/demo/loader-csp.html',
  '/demo/loader-order.html',
  '/demo/loader-order-plain.html',
];

/** Loads a page and collects every response that failed, and whether the document itself was redirected. */
async function visit(page: Page, path: string) {
  const failed: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    // The order demos request a missing script on purpose (its error event is part of the test case).
    if (response.status() >= 400 && !url.pathname.endsWith('/missing.js'))
      failed.push(`${response.status()} ${url.pathname}`);
  });
  const response = await page.goto(path);
  await page.waitForLoadState('load');
  // Browsers ask for /favicon.ico after load when a page names none; give that request time to happen.
  await page.waitForTimeout(300);
  return { failed, status: response?.status(), redirected: response?.request().redirectedFrom() !== null };
}

for (const path of demoPages) {
  test(`${path} answers without a redirect, has one main landmark, puts all content in landmarks, and has no 404`, async ({
    page,
  }) => {
    const { failed, status, redirected } = await visit(page, path);
    expect(status).toBe(200);
    expect(redirected).toBe(false);
    expect(failed).toEqual([]);
    await expect(page.locator('main')).toHaveCount(1);
    // axe's "region" rule: visible content outside header, nav, main, aside or footer.
    const outside = await page.evaluate(() =>
      Array.from(document.body.children)
        .filter(
          (element) =>
            !['HEADER', 'NAV', 'MAIN', 'ASIDE', 'FOOTER', 'SCRIPT', 'TEMPLATE', 'NOSCRIPT'].includes(element.tagName),
        )
        .filter((element) => (element as HTMLElement).offsetParent !== null || element.getClientRects().length > 0)
        .map((element) => element.outerHTML.slice(0, 80)),
    );
    expect(outside).toEqual([]);
  });
}

test('the speed test links to the demos and to the baseline comparison; the demo index links every demo', async ({
  page,
}) => {
  await page.goto('/?autostart=0');
  await expect(page.getByRole('link', { name: 'Demos' })).toHaveAttribute('href', '/demo/');
  await expect(page.getByRole('link', { name: 'Compare with @cloudflare/speedtest' })).toHaveAttribute(
    'href',
    '/baseline.html',
  );
  await page.getByRole('link', { name: 'Demos' }).click();
  await expect(page).toHaveURL(/\/demo\/$/);
  const links = await page
    .locator('main a')
    .evaluateAll((anchors) => anchors.map((a) => (a as HTMLAnchorElement).pathname));
  for (const path of demoPages.slice(1)) expect(links).toContain(path);
});

test('the images demo lists original and served bytes per image and the total saved', async ({ page }) => {
  await page.goto('/demo/images.html');
  const table = page.locator('#savings');
  await expect(table).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  const rows = await table.locator('tbody tr').evaluateAll((trs) =>
    (trs as HTMLElement[]).map((tr) => ({
      path: tr.dataset.path,
      original: Number(tr.dataset.original),
      served: Number(tr.dataset.served),
    })),
  );
  expect(rows).toHaveLength(7);
  const coffee = rows.find((row) => row.path === '/demo/images/coffee.png');
  // The PNG fixture itself, and a much smaller AVIF or WebP in its place.
  expect(coffee?.original).toBeGreaterThan(500_000);
  expect(coffee?.served).toBeLessThan((coffee?.original ?? 0) / 5);
  for (const row of rows) expect(row.served, row.path).toBeLessThan(row.original);
  const original = rows.reduce((sum, row) => sum + row.original, 0);
  const served = rows.reduce((sum, row) => sum + row.served, 0);
  await expect(table.locator('[data-total="saved"]')).toContainText(
    `${new Intl.NumberFormat('en').format(original - served)} B`,
  );
});

test('the priority demo gets progressive JPEGs, not AVIF/WebP, and shows preview offsets with and without priority', async ({
  page,
}) => {
  const types = new Map<string, string>();
  page.on('response', (response) => {
    if (response.request().resourceType() === 'image') {
      types.set(new URL(response.url()).pathname, response.headers()['content-type'] ?? '');
    }
  });
  await page.goto('/demo/priority.html');
  const table = page.locator('#offsets');
  await expect(table).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
  const imageTypes = [...types].filter(([path]) => path.startsWith('/demo/priority/'));
  expect(imageTypes).toHaveLength(10);
  for (const [path, type] of imageTypes) expect(type, path).toBe('image/jpeg');
  await expect(table.locator('tbody tr[data-type="image/jpeg"]')).toHaveCount(10);
  const model = page.locator('#preview-model');
  const withMs = Number(await model.getAttribute('data-with-ms'));
  const withoutMs = Number(await model.getAttribute('data-without-ms'));
  expect(withMs).toBeGreaterThan(0);
  expect(withMs).toBeLessThan(withoutMs);
});

for (const [path, variant] of [
  ['/demo/loader-libs-plain.html', 'plain'],
  ['/demo/loader-libs.html', 'binast'],
] as const) {
  test(`${path} shows how long this load took until the app ran, next to the other version's runs`, async ({
    page,
  }) => {
    await page.goto(path);
    const panel = page.locator('#timings');
    await expect(panel).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
    const timing = (await page.evaluate(() => (window as unknown as { __loaderTiming: unknown }).__loaderTiming)) as {
      variant: string;
      cache: string;
      executedMs: number;
    };
    expect(timing.variant).toBe(variant);
    const markMs = await page.evaluate(() => performance.getEntriesByName('app:executed')[0]?.startTime ?? -1);
    expect(timing.executedMs).toBe(Math.round(markMs));
    await expect(page.locator('#this-load')).toContainText(`app executed ${timing.executedMs} ms after navigation`);
    await expect(panel.locator(`tr[data-version="${variant}"][data-cache="${timing.cache}"] td`).nth(2)).not.toHaveText(
      '0',
    );
    // The bench's own numbers are there too, loader slower than plain where it was measured so.
    await expect(panel.locator('td.slower').first()).toBeVisible();
  });
}
