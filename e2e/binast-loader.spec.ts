import { createHash } from 'node:crypto';
import { expect, test } from '@playwright/test';
import {
  forceBinast,
  type LoaderRecord,
  libraryPaths,
  libraryScripts,
  loaderRecords,
  loaderRender,
  pageErrors,
  plainRender,
  primeBinast,
  storedCopies,
} from './binast-loader-helpers';

test('real libraries (React, ReactDOM, d3, lodash) and an app render the same through the loader as plain', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const reference = await plainRender(page);
  await forceBinast(page);
  const { records, html } = await loaderRender(page);
  expect(html).toBe(reference);
  expect(records.map((record) => new URL(record.url).pathname.split('/').pop())).toEqual(libraryScripts);
  for (const record of records) expect(['binast', 'js']).toContain(record.outcome);
  await page.getByRole('button').click();
  await expect(page.getByRole('button')).toHaveText('Clicked 1 times');
  expect(errors).toEqual([]);
});

test('blocking, defer, async and module scripts run in the order plain scripts do, with their events', async ({
  page,
}) => {
  type CaseState = { order: string[]; seen: Record<string, unknown>; events: string[] };
  const run = async (path: string): Promise<CaseState> => {
    await page.goto(path);
    await page.waitForFunction(() => {
      const state = (window as unknown as { loaderCase?: CaseState }).loaderCase;
      return state && state.order.length === 6 && state.events.length === 4;
    });
    // Any event that fired twice would show up here.
    await page.waitForTimeout(100);
    return page.evaluate(() => (window as unknown as { loaderCase: CaseState }).loaderCase);
  };
  const withoutAsync = (order: string[]) => order.filter((name) => name !== 'async');
  const plain = await run('/demo/loader-order-plain');
  expect(withoutAsync(plain.order)).toEqual(['after-lodash', 'listeners', 'end', 'defer', 'module']);
  // Both ways the loader can go: plain scripts (no size hints: the cost model steps aside, blocking scripts start at
  // once in order) and BinaryAST for every script (`data-always`).
  for (const always of [false, true]) {
    if (always) await forceBinast(page);
    const viaLoader = await run('/demo/loader-order');
    expect(withoutAsync(viaLoader.order)).toEqual(withoutAsync(plain.order));
    // currentScript: the same src and dataset for classic scripts, null for modules; lodash was there for the next
    // one. The async script may run before or after lodash, with plain scripts too: only its currentScript is compared.
    const { async: loaderAsync, ...loaderOrdered } = viaLoader.seen;
    const { async: plainAsync, ...plainOrdered } = plain.seen;
    expect(loaderOrdered).toEqual(plainOrdered);
    expect((loaderAsync as { src: string }).src).toBe((plainAsync as { src: string }).src);
    expect(viaLoader.events.toSorted()).toEqual(plain.events.toSorted());
    const records: LoaderRecord[] = await loaderRecords(page);
    const missing = records.find((record) => record.url.endsWith('/missing.js'));
    expect(missing).toMatchObject({ outcome: 'error', reason: always ? 'http-404' : 'no-hint' });
    expect(records.find((record) => record.url.endsWith('/module.js'))).toMatchObject({ module: true, mode: 'defer' });
    // Forced: BinaryAST, or JavaScript while the Worker has not encoded a script yet (it starts on that request).
    for (const record of records.filter((other) => other !== missing)) {
      expect(always ? ['binast', 'js'] : ['plain']).toContain(record.outcome);
    }
  }
});

test('a loader embedded async, which finds the opt-in scripts already parsed, keeps the plain order', async ({
  page,
}) => {
  type CaseState = { order: string[] };
  // Chromium sets `async` on every script of an unknown type it has parsed; the plan reads the attribute instead.
  await page.route('**/demo/loader-order', async (route) => {
    const response = await route.fetch();
    const body = (await response.text()).replace(
      '<script src="/demo/loader/binast-loader.min.js"',
      '<script async src="/demo/loader/binast-loader.min.js"',
    );
    expect(body).toContain('<script async src="/demo/loader/binast-loader.min.js"');
    await route.fulfill({ response, body });
  });
  await page.goto('/demo/loader-order');
  await page.waitForFunction(() => (window as unknown as { loaderCase?: CaseState }).loaderCase?.order.length === 6);
  const order = await page.evaluate(() => (window as unknown as { loaderCase: CaseState }).loaderCase.order);
  expect(order.filter((name) => name !== 'async')).toEqual(['after-lodash', 'listeners', 'end', 'defer', 'module']);
  const records: LoaderRecord[] = await loaderRecords(page);
  expect(records.find((record) => record.url.endsWith('?defer'))).toMatchObject({ mode: 'defer' });
});

test('every script gets User Timing measures for fetch and execute, with bytes in its record', async ({ page }) => {
  await forceBinast(page);
  const { records } = await loaderRender(page);
  const measures = await page.evaluate(() =>
    ['binast:fetch', 'binast:execute'].map((name) => performance.getEntriesByName(name, 'measure').length),
  );
  expect(measures).toEqual([records.length, records.length]);
  for (const record of records) expect(record.transferBytes).toBeGreaterThan(0);
});

test('an inlined loader with a relative data-decoder imports binast-remember.js beside the decoder after load', async ({
  page,
  request,
}) => {
  const errors = pageErrors(page);
  const source = await (await request.get('/demo/loader/binast-loader.min.js')).text();
  let inlined = false;
  await page.route('**/demo/loader-libs', async (route) => {
    const response = await route.fetch();
    // The loader's tag keeps its attributes (the Worker's CSP nonce) and gets the source and a relative decoder URL.
    const body = (await response.text()).replace(
      /<script src="\/demo\/loader\/binast-loader\.min\.js"([^>]*)><\/script>/,
      (_, attributes: string) => {
        inlined = true;
        return `<script data-decoder="/demo/loader/binast.js"${attributes}>${source.replaceAll('</script', '<\\/script')}</script>`;
      },
    );
    await route.fulfill({ response, body });
  });
  const { records } = await loaderRender(page);
  expect(inlined).toBe(true);
  expect(records.length).toBe(libraryScripts.length);
  // Resolved like the decoder's own import: the after-load module comes from beside it.
  await page.waitForFunction(() =>
    performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/demo/loader/binast-remember.js')),
  );
  expect(
    await page.evaluate(() =>
      performance.getEntriesByName(new URL('/demo/loader/binast-loader.min.js', location.href).href),
    ),
  ).toEqual([]);
  expect(errors).toEqual([]);
});

test('the beacon is off by default and posts the records once the loaded page hides when configured', async ({
  page,
}) => {
  const beacons: string[] = [];
  await page.route('**/__loader-beacon', async (route) => {
    beacons.push(route.request().postData() ?? '');
    await route.fulfill({ status: 204 });
  });
  // pagehide is what the loader listens to; dispatching it keeps the page (and its routes) alive to observe the POST.
  // The listener is set up once the page has loaded, by binast-remember.js (imported then): wait for it first.
  const hide = async () => {
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/binast-remember.js')),
    );
    await page.waitForTimeout(200);
    await page.evaluate(() => dispatchEvent(new PageTransitionEvent('pagehide')));
  };
  await loaderRender(page);
  await hide();
  await page.waitForTimeout(300);
  expect(beacons).toEqual([]);
  await page.route('**/demo/loader-libs', async (route) => {
    const response = await route.fetch();
    // No closing `>` in the pattern: the Worker adds a CSP nonce attribute to every script tag.
    const body = (await response.text()).replace(
      '<script src="/demo/loader/binast-loader.min.js"',
      '<script src="/demo/loader/binast-loader.min.js" data-beacon="/__loader-beacon"',
    );
    await route.fulfill({ response, body });
  });
  const { records } = await loaderRender(page);
  await hide();
  await expect.poll(() => beacons.length).toBe(1);
  const sent = JSON.parse(beacons[0] ?? '[]') as LoaderRecord[];
  expect(sent).toEqual(records);
});

test('scripts the Worker has encoded are fetched as BinaryAST, decoded in Wasm and render the same', async ({
  page,
  request,
}) => {
  // Encoding d3 and ReactDOM in the Worker takes seconds on a busy machine.
  test.setTimeout(90_000);
  const errors = pageErrors(page);
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  await primeBinast(request, libraryPaths);
  await forceBinast(page);
  // The loader page first, with an empty HTTP cache: see the repeat-visit test below for why the order matters.
  const { records, html } = await loaderRender(page);
  expect(records.map((record) => record.outcome)).toEqual(Array(libraryPaths.length).fill('binast'));
  // The decoded source reached the page as a Blob: the large libraries ran from a blob: URL, never as a string on the
  // main thread; the small ones (React and the app, under 64 KB) inline, which costs less for them.
  expect(records.map((record) => record.executedFrom)).toEqual(['inline', 'blob', 'blob', 'blob', 'inline']);
  // Decoding ran off the main thread, in the decoder's Web Worker.
  expect(workers.filter((url) => url.endsWith('/demo/loader/binast-worker.js'))).toHaveLength(1);
  for (const record of records) expect(record.decodeMs).toBeGreaterThan(0);
  const decodes = await page.evaluate(() => performance.getEntriesByName('binast:decode', 'measure').length);
  expect(decodes).toBe(libraryPaths.length);
  expect(html).toBe(await plainRender(page));
  expect(errors).toEqual([]);
});

// The browser revalidates its cached JavaScript with If-None-Match / If-Modified-Since even when Accept differs
// (Vary: Accept); the Worker judges them against the BinaryAST representation, so the URL is upgraded.
test('a repeat visit gets BinaryAST although the HTTP cache holds the JavaScript', async ({ page, request }) => {
  await primeBinast(request, libraryPaths);
  await plainRender(page);
  await forceBinast(page);
  const { records } = await loaderRender(page);
  expect(records.map((record) => record.outcome)).toEqual(Array(libraryPaths.length).fill('binast'));
});

test('a repeat view of BinaryAST scripts reads the decoded source back instead of decoding again', async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  await forceBinast(page);
  const first = await loaderRender(page);
  expect(first.records.map((record) => record.decodedBefore)).toEqual(Array(libraryPaths.length).fill(undefined));
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  // The decoder's Worker stores each copy once the page says the script ran; give the writes a moment before the
  // next view.
  await expect.poll(async () => (await storedCopies(page)).length).toBe(libraryPaths.length);
  const repeat = await loaderRender(page);
  expect(repeat.html).toBe(first.html);
  for (const record of repeat.records) expect(record).toMatchObject({ outcome: 'binast', decodedBefore: true });
  // Nothing to decode: the decoder's Worker never started.
  expect(workers).toEqual([]);
});

// One script's copy is gone (evicted, or never written): the decoder starts for it alone, the others run their copies.
test('a repeat view with one copy missing decodes that script and reads the others back', async ({ page, request }) => {
  test.setTimeout(90_000);
  const errors = pageErrors(page);
  await primeBinast(request, libraryPaths);
  await forceBinast(page);
  const first = await loaderRender(page);
  const copies = async () => (await storedCopies(page)).length;
  await expect.poll(copies).toBe(libraryPaths.length);
  await page.evaluate(async () => {
    const cache = await caches.open('binast-decoded-v1');
    for (const request of await cache.keys()) if (request.url.includes('/lib/react.js')) await cache.delete(request);
  });
  const repeat = await loaderRender(page);
  expect(repeat.html).toBe(first.html);
  expect(
    repeat.records.map(({ url, outcome, decodedBefore }) => [new URL(url).pathname, outcome, decodedBefore]),
  ).toEqual(
    first.records.map(({ url }) => {
      const path = new URL(url).pathname;
      return [path, 'binast', path.endsWith('/lib/react.js') ? undefined : true];
    }),
  );
  await expect.poll(copies).toBe(libraryPaths.length);
  expect(errors).toEqual([]);
});

// Content-hashed script URLs change with every deploy: without a bound, each deploy would add one more copy for good.
test('decoded copies are bounded: the oldest go once 50 are stored', async ({ page, request }) => {
  test.setTimeout(90_000);
  await primeBinast(request, libraryPaths);
  await forceBinast(page);
  await page.goto('/demo/loader-libs-plain');
  await page.evaluate(async () => {
    const cache = await caches.open('binast-decoded-v1');
    for (let deploy = 0; deploy < 60; deploy++)
      await cache.put(`/demo/old/app.${deploy}.js?binast-etag=%22${deploy}%22`, new Response(`// deploy ${deploy}`));
  });
  await loaderRender(page);
  await expect
    .poll(async () => (await storedCopies(page)).filter((path) => !path.startsWith('/demo/old/')).length)
    .toBe(libraryPaths.length);
  const paths = await storedCopies(page);
  expect(paths).toHaveLength(50);
  // The newest old entries stay, the loader's copies are the newest of all.
  expect(paths.slice(0, 50 - libraryPaths.length)).toEqual(
    Array.from({ length: 50 - libraryPaths.length }, (_, i) => `/demo/old/app.${60 - 50 + libraryPaths.length + i}.js`),
  );
});

test('a script added after DOMContentLoaded runs once binast.scan() sees it, as an async script', async ({ page }) => {
  await page.goto('/demo/loader-order');
  await loaderRecords(page);
  const record = await page.evaluate(async () => {
    const script = document.createElement('script');
    script.type = 'binast';
    script.src = '/demo/loader-cases/step.js?dynamic';
    script.dataset.name = 'dynamic';
    const loaded = new Promise((resolve) => script.addEventListener('load', resolve));
    document.body.append(script);
    const loader = (window as unknown as { binast: { scan(): void; records: LoaderRecord[] } }).binast;
    loader.scan();
    await loaded;
    return loader.records.at(-1);
  });
  expect(record).toMatchObject({ mode: 'async', url: expect.stringContaining('step.js?dynamic') });
  const order = await page.evaluate(() => (window as unknown as { loaderCase: { order: string[] } }).loaderCase.order);
  expect(order.at(-1)).toBe('dynamic');
});

test('scripts with integrity run from their plain URL, and Subresource Integrity is still enforced', async ({
  page,
  request,
}) => {
  const source = await (await request.get('/demo/loader-cases/step.js?sri')).body();
  const hash = `sha384-${createHash('sha384').update(source).digest('base64')}`;
  const tag = (name: string, integrity: string) =>
    `<script type="binast" src="/demo/loader-cases/step.js?${name}" data-name="${name}" integrity="${integrity}" onerror="loaderCase.events.push('error:${name}')"></script>`;
  await page.route('**/demo/loader-sri', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><script>window.loaderCase = { order: [], seen: {}, events: [] };</script>
        <script src="/demo/loader/binast-loader.min.js" data-always></script>${tag('sri', hash)}${tag('tampered', 'sha384-AAAA')}`,
    }),
  );
  await page.goto('/demo/loader-sri');
  const records = await loaderRecords(page);
  expect(records.map((record) => [record.outcome, record.reason])).toEqual([
    ['fallback', 'integrity'],
    ['error', 'integrity'],
  ]);
  const state = await page.evaluate(
    () => (window as unknown as { loaderCase: { order: string[]; events: string[] } }).loaderCase,
  );
  expect(state.order).toEqual(['sri']);
  expect(state.events).toEqual(['error:tampered']);
  // The preload carries the integrity too, so the script uses it instead of downloading again.
  const downloads = await page.evaluate(
    () => performance.getEntriesByName(new URL('/demo/loader-cases/step.js?sri', location.href).href).length,
  );
  expect(downloads).toBe(1);
});
