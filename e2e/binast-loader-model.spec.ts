import { expect, type Page, test } from '@playwright/test';
import {
  type LoaderRecord,
  libraryPaths,
  loaderRender,
  pageErrors,
  plainRender,
  primeBinast,
} from './binast-loader-helpers';

// The loader's cost model (packages/binast-loader/src/model.ts) against the real Worker: it reads the size hints the
// Worker puts on the page (workers/src/binast/size-hint.ts) and either steps aside (plain scripts, no BinaryAST
// request, no decoder) or fetches BinaryAST and decodes it, and says why in `record.reason`.

/** Requests that asked for BinaryAST, and requests for the decoder's files, from now on. */
function watchRequests(page: Page) {
  const binast: string[] = [];
  const decoder: string[] = [];
  page.on('request', (request) => {
    if ((request.headers().accept ?? '').includes('application/javascript-binast')) binast.push(request.url());
    if (/\/demo\/loader\/binast(\.js|-worker\.js|-wasm\.js|_bg\.wasm)$/.test(request.url()))
      decoder.push(request.url());
  });
  return { binast, decoder };
}

/**
 * Serves the loader page with each script's size hint rewritten by `hint(jsBytes, binastBytes)`, as the Worker would
 * for a format of that size: without the preloads (and their `data-binast-preloaded` marks) it adds only where
 * BinaryAST cannot win.
 */
async function rewriteHints(page: Page, hint: (jsBytes: number, binastBytes: number) => string) {
  await page.route(/\/demo\/loader-libs$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text())
      .replace(/<link rel="preload" as="script"[^>]*>/g, '')
      .replace(/ data-binast-preloaded(="")?/g, '')
      .replace(
        /data-binast-size="(\d+) (\d+)"/g,
        (_, js: string, binast: string) => `data-binast-size="${hint(Number(js), Number(binast))}"`,
      );
    await route.fulfill({ response, body });
  });
}

test("with the Worker's real hints BinaryAST cannot win, so it preloads the scripts and the loader steps aside: no decoder", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  const requests = watchRequests(page);
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  for (const record of records) {
    // Chromium decodes while downloading (JavaScript Promise Integration); the Worker's preload rule does not count on it.
    expect(record).toMatchObject({ outcome: 'plain', reason: 'preloaded', preloaded: true, streams: true });
    // The hint is the Worker's gzip size of each format: the context layout is smaller for every library, but not
    // by enough to pay for decoding even at 1.6 Mbit/s (the Worker's preload rule, `mayWin`).
    expect(record.jsBytes).toBeGreaterThan(0);
    expect(record.binastBytes).toBeLessThan(record.jsBytes ?? 0);
    expect(record.binastBytes).toBeGreaterThan((record.jsBytes ?? 0) / 1.70667);
  }
  expect(requests.binast).toEqual([]);
  expect(requests.decoder).toEqual([]);
  // The Worker put a preload before each script, so the browser's preload scanner starts them with the HTML.
  const preloaded = await page
    .locator('link[rel="preload"][as="script"]')
    .evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(preloaded).toEqual(libraryPaths);
  expect(errors).toEqual([]);
});

test('a repeat view after stepping aside takes the plain scripts from the HTTP cache and never decodes', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  await loaderRender(page);
  const requests = watchRequests(page);
  const { records } = await loaderRender(page);
  expect(records.map((record) => record.outcome)).toEqual(Array(libraryPaths.length).fill('plain'));
  for (const record of records) expect(record.decodeMs).toBeUndefined();
  // From the HTTP cache: `wrangler dev` serves assets with max-age=0, so each is revalidated (a 304: headers only,
  // a few hundred bytes), never downloaded again.
  for (const record of records) expect(record.transferBytes).toBeLessThan(1024);
  expect(requests.binast).toEqual([]);
  expect(requests.decoder).toEqual([]);
});

test('without a size hint the loader steps aside and says so', async ({ page }) => {
  const reference = await plainRender(page);
  await page.route(/\/demo\/loader-libs$/, async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(/ data-binast-size="[^"]*"/g, '');
    await route.fulfill({ response, body });
  });
  const requests = watchRequests(page);
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  for (const record of records) expect(record).toMatchObject({ outcome: 'plain', reason: 'no-hint' });
  expect(requests.binast).toEqual([]);
});

test('on a slow link with the decoder cached and BinaryAST at 0.3× the size, the loader uses it and decodes', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  await primeBinast(request, libraryPaths);
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  // An earlier page ran the decoder: its files are in the HTTP cache and it marked itself for the cost model.
  await page.evaluate(() =>
    import('/demo/loader/binast.js' as string).then((decoder: { default(): Promise<void> }) => decoder.default()),
  );
  // A format at 0.3× the JavaScript's size (what the size hint would say of a much better encoder; the context
  // layout is ≈ 0.75× today, not enough to pay for its decoding), on a 1.6 Mbit/s, 150 ms link: Chromium's network
  // emulation also sets what Network Information reports.
  await rewriteHints(page, (jsBytes) => `${jsBytes} ${Math.round(jsBytes * 0.3)}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6e6 / 8) * 0.9,
    uploadThroughput: (0.75e6 / 8) * 0.9,
    connectionType: 'cellular4g',
  });
  const requests = watchRequests(page);
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  for (const record of records) {
    expect(record).toMatchObject({ outcome: 'binast', reason: 'faster', decoderCached: true });
    expect(record.downMbit).toBeGreaterThan(0);
    expect(record.downMbit).toBeLessThan(3);
    expect(record.savedMs).toBeGreaterThan(record.costMs ?? Number.POSITIVE_INFINITY);
    expect(record.decodeMs).toBeGreaterThan(0);
  }
  expect(requests.binast.map((url) => new URL(url).pathname).toSorted()).toEqual(libraryPaths.toSorted());
  expect(errors).toEqual([]);
});

test('the same hints on a fast link: decoding costs more than the bytes save, so the loader steps aside', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  await page.goto('/demo/loader-libs-plain');
  await page.evaluate(() =>
    import('/demo/loader/binast.js' as string).then((decoder: { default(): Promise<void> }) => decoder.default()),
  );
  // 10 % smaller: at 100 Mbit/s the bytes saved take far less time than decoding them.
  await rewriteHints(page, (jsBytes) => `${jsBytes} ${Math.round(jsBytes * 0.9)}`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 10,
    downloadThroughput: 100e6 / 8,
    uploadThroughput: 50e6 / 8,
    connectionType: 'ethernet',
  });
  const requests = watchRequests(page);
  const { records } = await loaderRender(page);
  const reasons = records.map((record: LoaderRecord) => [record.outcome, record.reason]);
  expect(reasons).toEqual(Array(libraryPaths.length).fill(['plain', 'slower']));
  for (const record of records) expect(record.savedMs).toBeLessThanOrEqual(record.costMs ?? 0);
  expect(requests.binast).toEqual([]);
});
