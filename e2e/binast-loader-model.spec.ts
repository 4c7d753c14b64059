import { expect, type Page, test } from '@playwright/test';
import { binastFetchPath, binastQuery } from '@speedkit/binast-loader/model';
import {
  type LoaderRecord,
  libraryPaths,
  loaderRender,
  optInAgain,
  pageErrors,
  plainRender,
  primeBinast,
} from './binast-loader-helpers';

// The loader's cost model (packages/binast-loader/src/model.ts) against the real Worker: it reads the size hints the
// Worker puts on the page (workers/src/binast/size-hint.ts) and either steps aside (plain scripts, no BinaryAST
// request, no decoder) or fetches BinaryAST and decodes it, and says why in `record.reason`.

/** Requests that asked for BinaryAST, and requests for the decoder's files, from now on. */
/** A request for BinaryAST by its own URL (`binastFetchPath`). */
const binastUrl = new RegExp(`[?&]${binastQuery}$`);

function watchRequests(page: Page) {
  const binast: string[] = [];
  const decoder: string[] = [];
  page.on('request', (request) => {
    // By Accept, or by the URL the Worker preloads (`?__binast`: model.ts `binastFetchPath`).
    const accept = request.headers().accept ?? '';
    if (accept.includes('application/javascript-binast') || binastUrl.test(request.url())) binast.push(request.url());
    if (/\/demo\/loader\/binast(\.js|-worker\.js|-wasm\.js|_bg\.wasm)$/.test(request.url()))
      decoder.push(request.url());
  });
  return { binast, decoder };
}

/**
 * Per record, how many Resource Timing entries its plain URL and its BinaryAST URL (`?__binast`, what the Worker
 * preloads) have: a request that took over a preload makes no entry of its own.
 */
function requestsPerScript(page: Page, records: { url: string }[]) {
  return page.evaluate(
    (urls) => urls.map((pair) => pair.map((url) => performance.getEntriesByName(url).length)),
    records.map((record) => [record.url, binastFetchPath(record.url)]),
  );
}

/**
 * Serves the loader page with each script's size hint rewritten by `hint(jsBytes, binastBytes)`, as the Worker would
 * for a format of that size: without the plain scripts it writes back and the preloads (and their
 * `data-binast-preloaded` marks) it adds only where BinaryAST cannot win.
 */
async function rewriteHints(page: Page, hint: (jsBytes: number, binastBytes: number) => string) {
  await page.route(/\/demo\/loader-libs$/, async (route) => {
    const response = await route.fetch();
    const body = optInAgain(await response.text())
      .replace(/<link rel="preload" as="script"[^>]*>/g, '')
      .replace(/ data-binast-preloaded(="")?/g, '')
      .replace(
        // What the cookies add (link speed, decoder) stays.
        /data-binast-size="(\d+) (\d+)((?: [\d.]+)*)"/g,
        (_, js: string, binast: string, cookies: string) =>
          `data-binast-size="${hint(Number(js), Number(binast))}${cookies}"`,
      );
    await route.fulfill({ response, body });
  });
}

/**
 * Chromium's network emulation of the mobile profile's link: 1.6/0.75 Mbit/s (90 % of it as goodput), 150 ms. It
 * also sets what Network Information reports.
 */
async function emulateSlowLink(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6e6 / 8) * 0.9,
    uploadThroughput: (0.75e6 / 8) * 0.9,
    connectionType: 'cellular4g',
  });
}

/** The value of one of the page's cookies once it is set, polled (the loader writes them after the load event). */
async function cookieOnceSet(page: Page, name: string): Promise<string> {
  let value = '';
  await expect
    .poll(
      async () => {
        value = (await page.context().cookies()).find((cookie) => cookie.name === name)?.value ?? '';
        return value;
      },
      { timeout: 30_000 },
    )
    .not.toBe('');
  return value;
}

test("with the Worker's real hints BinaryAST cannot win, so the Worker writes the plain scripts back and the loader only records them: no decoder", async ({
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
  expect(records.map((record) => new URL(record.url).pathname)).toEqual(libraryPaths);
  for (const record of records) expect(record).toMatchObject({ outcome: 'plain', reason: 'native', mode: 'blocking' });
  // Parser-inserted plain scripts, as on the page without the loader, found by the preload scanner (no preload
  // links needed); each keeps the Worker's size hint: the context layout is smaller for every library, but not by
  // enough to pay for decoding even at 1.6 Mbit/s (the Worker's preload rule, `mayWin`).
  const scripts = await page
    .locator('script[data-binast-size]')
    .evaluateAll((elements) =>
      elements.map((element) => [
        element.getAttribute('type'),
        new URL((element as HTMLScriptElement).src).pathname,
        element.getAttribute('data-binast-size'),
      ]),
    );
  expect(scripts.map(([type, path]) => [type, path])).toEqual(libraryPaths.map((path) => [null, path]));
  for (const [, , hint] of scripts) {
    const [jsBytes = 0, binastBytes = 0] = (hint ?? '').split(' ').map(Number);
    expect(binastBytes).toBeLessThan(jsBytes);
    expect(binastBytes).toBeGreaterThan(jsBytes / 1.70667);
  }
  expect(await page.locator('link[rel="preload"][as="script"]').count()).toBe(0);
  expect(requests.binast).toEqual([]);
  // Nothing of the decoder while the page loads (after the load event the loader may fetch it for a later view, if
  // it measured a slow link: a loaded machine serves localhost slowly).
  const decoderBeforeLoad = await page.evaluate(() => {
    const loadEnd = performance.getEntriesByType('navigation')[0]?.duration ?? 0;
    return performance
      .getEntriesByType('resource')
      .filter(
        (entry) => /\/binast(\.js|-worker\.js|-wasm\.js|_bg\.wasm)$/.test(entry.name) && entry.startTime < loadEnd,
      )
      .map((entry) => entry.name);
  });
  expect(decoderBeforeLoad).toEqual([]);
  expect(errors).toEqual([]);
});

test('a repeat view after stepping aside takes the plain scripts from the HTTP cache and never decodes', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  await loaderRender(page);
  // The first view's after-load work (the link cookie; the decoder, if that view measured a slow link — a loaded
  // machine serves localhost slowly) ends before the repeat view starts.
  await cookieOnceSet(page, 'binast-link');
  await page.waitForLoadState('networkidle');
  const requests = watchRequests(page);
  const { records } = await loaderRender(page);
  // `native` whatever the first view measured: the plain-script cookie tells the Worker the first view ran these
  // scripts plain, so it wrote the plain scripts back, and they came from the cache.
  for (const record of records) {
    expect(record.outcome).toBe('plain');
    expect(record.reason).toBe('native');
    expect(record.decodeMs).toBeUndefined();
  }
  // `wrangler dev` serves assets with max-age=0, so each is revalidated (a 304: headers only, a few hundred bytes),
  // never downloaded again.
  const transferBytes = await page.evaluate(
    (urls) => urls.map((url) => (performance.getEntriesByName(url).at(-1) as PerformanceResourceTiming).transferSize),
    records.map((record) => record.url),
  );
  for (const bytes of transferBytes) expect(bytes).toBeLessThan(1024);
  expect(requests.binast).toEqual([]);
  // The decoder never starts: no Worker, no Wasm.
  expect(requests.decoder.filter((url) => !url.endsWith('/binast.js'))).toEqual([]);
});

test('without a size hint the loader steps aside and says so', async ({ page }) => {
  const reference = await plainRender(page);
  await page.route(/\/demo\/loader-libs$/, async (route) => {
    const response = await route.fetch();
    // As the Worker leaves a page whose scripts it has no hint for: opt-in scripts without one.
    const body = optInAgain(await response.text()).replace(/ data-binast-size="[^"]*"/g, '');
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
  // New scripts (a new deploy): the plain ones the reference put in the HTTP cache would be used as they are.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  // An earlier page loaded the decoder (remember.ts): its files are in the HTTP cache and it marked itself for the
  // cost model.
  await page.evaluate(() =>
    import('/demo/loader/binast.js' as string).then((decoder: { warm(): Promise<void> }) => decoder.warm()),
  );
  // A format at 0.3× the JavaScript's size (what the size hint would say of a much better encoder; the context
  // layout is ≈ 0.75× today, not enough to pay for its decoding), on a 1.6 Mbit/s, 150 ms link.
  await rewriteHints(page, (jsBytes) => `${jsBytes} ${Math.round(jsBytes * 0.3)}`);
  await emulateSlowLink(page);
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
  // The Worker, which knows only the real sizes, expected plain scripts here and preloaded no BinaryAST; so the
  // loader asked by Accept, after checking the HTTP cache (the next deploy's test below has the Worker's preload).
  expect(await requestsPerScript(page, records)).toEqual(records.map(() => [2, 0]));
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
    import('/demo/loader/binast.js' as string).then((decoder: { warm(): Promise<void> }) => decoder.warm()),
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

test("a slow link's first view remembers the link and fetches the decoder after load; a repeat view uses the cached plain scripts; the next deploy's scripts come as BinaryAST", async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  // The new deploy below serves the same files at `?v=2`: encodings are keyed by the full URL, so it has its own,
  // encoded by its first BinaryAST requests (here before the views, as a first visitor after a deploy would).
  await primeBinast(request, [...libraryPaths, ...libraryPaths.map((path) => `${path}?v=2`)]);
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  await emulateSlowLink(page);

  // First view: nothing known of this visitor, so the Worker writes every script back as a plain one, which the
  // loader records. After the load event the loader measures the link, and since the real hints (context layout)
  // would win on it with a cached, streaming decoder, it fetches the decoder for the next deploy.
  const first = watchRequests(page);
  const view1 = await loaderRender(page);
  expect(view1.html).toBe(reference);
  for (const record of view1.records) expect(record).toMatchObject({ outcome: 'plain', reason: 'native' });
  expect(first.binast).toEqual([]);
  const linkMbit = Number(await cookieOnceSet(page, 'binast-link'));
  // The emulated link carries 1.44 Mbit/s; the measurement reads the link, not each script's share of it.
  expect(linkMbit).toBeGreaterThan(0.7);
  expect(linkMbit).toBeLessThan(2.5);
  expect(await cookieOnceSet(page, 'binast-decoder')).toBe('1');
  expect(first.decoder.length).toBeGreaterThanOrEqual(3);
  // And stopped it again: this page has nothing to decode, and an idle Worker would hold its memory.
  await expect.poll(() => page.workers().length).toBe(0);
  // And which scripts it ran plain, so the Worker gives the next views the plain scripts, which the HTTP cache holds.
  expect((await cookieOnceSet(page, 'binast-plain')).split('.')).toHaveLength(view1.records.length);

  // Repeat view: BinaryAST would win on this link with the decoder cached, but these very scripts are in the HTTP
  // cache, so the Worker writes them back as plain scripts; the loader neither imports the decoder nor asks for
  // anything else.
  const repeat = watchRequests(page);
  const view2 = await loaderRender(page);
  expect(view2.html).toBe(reference);
  for (const record of view2.records) expect(record).toMatchObject({ outcome: 'plain', reason: 'native' });
  expect(repeat.binast).toEqual([]);
  expect(repeat.decoder).toEqual([]);
  // It downloaded nothing (revalidations only), so it leaves the first view's measurement as it was.
  await page.waitForTimeout(1_000);
  expect(Number(await cookieOnceSet(page, 'binast-link'))).toBe(linkMbit);

  // A new deploy (new script URLs, nothing of them cached): BinaryAST, decoded as it streams.
  await page.route(/\/demo\/loader-libs$/, async (route) => {
    // route.fetch() does not send the page's cookies by itself; the Worker decides its preloads from them. It decides
    // on the page's own script URLs, which the plain-script cookie lists; on a real deploy it would see the new ones,
    // which no view ran plain, so that cookie stays out.
    const cookie = (await page.context().cookies())
      .filter(({ name }) => name !== 'binast-plain')
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
    const response = await route.fetch({ headers: { ...route.request().headers(), cookie } });
    // The preloaded BinaryAST URLs (`?__binast`) become the new deploy's (`?v=2&__binast`), as the Worker writes them.
    const body = (await response.text()).replace(
      /(\/demo\/(?:loader\/lib\/[\w-]+|loader-app)\.js)(\?__binast)?/g,
      (_, path: string, marker?: string) => `${path}?v=2${marker ? '&__binast' : ''}`,
    );
    await route.fulfill({ response, body });
  });
  const deploy = watchRequests(page);
  const view3 = await loaderRender(page);
  expect(view3.html).toBe(reference);
  // The Worker put no preload in the page: the cookies told it the loader would take BinaryAST.
  expect(await page.locator('link[rel="preload"][as="script"]').count()).toBe(0);
  for (const record of view3.records) {
    expect(record).toMatchObject({
      outcome: 'binast',
      reason: 'faster',
      decoderCached: true,
      streams: true,
      preloaded: false,
    });
    expect(record.downMbit).toBeGreaterThanOrEqual(linkMbit);
    expect(record.url).toMatch(/\?v=2$/);
    // Its bytes: the Resource Timing entry of the preloaded `?__binast` URL.
    expect(record.transferBytes).toBeGreaterThan(0);
  }
  expect(deploy.binast).toHaveLength(libraryPaths.length);
  // Preloaded by the Worker and taken over by the loader: one request per script, no cache check of a plain copy.
  expect(await requestsPerScript(page, view3.records)).toEqual(view3.records.map(() => [0, 1]));
  expect(errors).toEqual([]);
});
