import { expect, test } from '@playwright/test';
import { askedForBinast, forceBinast, loaderRender, pageErrors, plainRender } from './binast-loader-helpers';

// Every failure path must leave the page exactly as the plain scripts would, and say why in the records. The cost
// model is skipped (`data-always`): these are the paths taken once BinaryAST was asked for.
test.beforeEach(async ({ page }) => {
  await forceBinast(page);
});

test('a server that answers JavaScript: the loader runs it as is', async ({ page }) => {
  const reference = await plainRender(page);
  // The same Worker, asked without BinaryAST in Accept, is a server (or cache miss) that only has JavaScript.
  await page.route('**/*.js', async (route) => {
    if (!askedForBinast(route)) return route.continue();
    await route.continue({ headers: { ...route.request().headers(), accept: '*/*' } });
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.map((record) => record.outcome)).toEqual(['js', 'js', 'js', 'js', 'js']);
});

test('BinaryAST bytes that do not decode: falls back to the plain script', async ({ page }) => {
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  await page.route('**/lib/d3.js', async (route) => {
    if (!askedForBinast(route)) return route.continue();
    const response = await route.fetch();
    const original = Buffer.from(await response.body());
    // A container header followed by bytes cut short and scrambled, as a broken proxy or disk would leave them.
    const corrupted = Buffer.concat([Buffer.from('BINJS'), original.subarray(0, 4096).reverse()]);
    await route.fulfill({ status: 200, contentType: 'application/javascript-binast', body: corrupted });
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.find((record) => record.url.endsWith('/d3.js'))).toMatchObject({
    outcome: 'fallback',
    reason: 'decode',
  });
  expect(errors).toEqual([]);
});

test('decoded JavaScript that does not parse: falls back without running anything twice', async ({ page }) => {
  const reference = await plainRender(page);
  await page.route('**/loader-app.js', async (route) => {
    if (!askedForBinast(route)) return route.continue();
    await route.fulfill({ status: 200, contentType: 'text/javascript', body: 'performance.mark("twice"); function (' });
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.at(-1)).toMatchObject({ outcome: 'fallback', reason: 'syntax' });
  expect(await page.evaluate(() => performance.getEntriesByName('twice').length)).toBe(0);
});

test('a network error on the BinaryAST request: falls back to the plain script', async ({ page }) => {
  const reference = await plainRender(page);
  await page.route('**/lib/react-dom.js', (route) => (askedForBinast(route) ? route.abort() : route.continue()));
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records[1]).toMatchObject({ outcome: 'fallback', reason: 'fetch' });
});

test('a decoder that cannot load: falls back to the plain script', async ({ page }) => {
  const reference = await plainRender(page);
  await page.route('**/demo/loader/binast_bg.wasm', (route) => route.abort());
  await page.route('**/lib/react.js', async (route) => {
    if (!askedForBinast(route)) return route.continue();
    await route.fulfill({ status: 200, contentType: 'application/javascript-binast', body: Buffer.from('BINJS') });
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records[0]).toMatchObject({ outcome: 'fallback', reason: 'decoder' });
});

test('Wasm blocked by the page CSP: every script falls back, nothing is downloaded twice', async ({ page }) => {
  const reference = await plainRender(page);
  await page.unrouteAll();
  await forceBinast(page, "script-src 'self' 'unsafe-inline'");
  const binastRequests: string[] = [];
  page.on('request', (request) => {
    if ((request.headers().accept ?? '').includes('javascript-binast')) binastRequests.push(request.url());
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.map((record) => record.reason)).toEqual(Array(5).fill('no-wasm'));
  expect(binastRequests).toEqual([]);
});

test('a browser without WebAssembly: every script falls back', async ({ page }) => {
  const reference = await plainRender(page);
  await page.addInitScript(() => {
    Reflect.deleteProperty(globalThis, 'WebAssembly');
  });
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.map((record) => record.reason)).toEqual(Array(5).fill('no-wasm'));
});

test('a CSP that forbids inline scripts: every script falls back to its plain URL', async ({ page }) => {
  const reference = await plainRender(page);
  await page.unrouteAll();
  await forceBinast(page, "script-src 'self' 'wasm-unsafe-eval'");
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.map((record) => record.reason)).toEqual(Array(5).fill('csp-inline'));
  // Each plain script was preloaded when found, so they downloaded in parallel, once each, not one after another.
  const initiators = await page.evaluate(() =>
    (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((entry) => /\/(lib\/[\w-]+|loader-app)\.js$/.test(entry.name))
      .map((entry) => entry.initiatorType),
  );
  expect(initiators).toEqual(Array(5).fill('link'));
});

test('a CSP that allows inline scripts but not blob: URLs: decoded scripts run inline, nothing falls back', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  await page.unrouteAll();
  await forceBinast(page, "script-src 'self' 'unsafe-inline' 'wasm-unsafe-eval'");
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  for (const record of records) {
    expect(['binast', 'js']).toContain(record.outcome);
    expect(record.executedFrom).toBe('inline');
  }
  expect(errors).toEqual([]);
});

test('a strict nonce CSP with wasm-unsafe-eval (the documented setup): no fallback at all', async ({ page }) => {
  const reference = await plainRender(page);
  const { records, html } = await loaderRender(page, '/demo/loader-csp');
  expect(html).toBe(reference);
  for (const record of records) expect(record.reason).toBe('always');
  // This policy has no worker-src/'self': the decoder's Worker is refused and decoding runs on the main thread.
  expect(records.map((record) => record.outcome)).toContain('binast');
});
