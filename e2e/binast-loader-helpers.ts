import { type APIRequestContext, expect, type Page, type Route } from '@playwright/test';

/** The loader's per-script record (packages/binast-loader/src/record.ts), as the page exposes it. */
export interface LoaderRecord {
  url: string;
  mode: string;
  module: boolean;
  outcome?: 'binast' | 'js' | 'plain' | 'fallback' | 'error';
  fetchMs?: number;
  executeMs?: number;
  reason?: string;
  transferBytes?: number;
  decodeMs?: number;
  decodedBefore?: boolean;
  executedFrom?: 'blob' | 'inline';
  jsBytes?: number;
  binastBytes?: number;
  decoderCached?: boolean;
  preloaded?: boolean;
  streams?: boolean;
  downMbit?: number;
  rttMs?: number;
  savedMs?: number;
  costMs?: number;
}

export const libraryScripts = ['react.js', 'react-dom.js', 'd3.js', 'lodash.js', 'loader-app.js'];

/** Waits for the loader to finish every script of the page and returns its records. */
export function loaderRecords(page: Page): Promise<LoaderRecord[]> {
  return page.evaluate(() => (window as unknown as { binast: { ready: Promise<LoaderRecord[]> } }).binast.ready);
}

/** Whether a request was made by the loader (it asks for BinaryAST) rather than by a plain `<script src>`. */
export function askedForBinast(route: Route): boolean {
  return (route.request().headers().accept ?? '').includes('application/javascript-binast');
}

/** The loader's own pages (not their `-plain` twins, not the scripts under /demo/loader/ and /demo/loader-cases/). */
const loaderPages = /\/demo\/loader-(libs|order|csp)(\.html)?(\?.*)?$/;

/**
 * Puts back the opt-in type on the scripts the Worker wrote back as plain ones (its size hint kept: model.ts
 * `nativeScriptRule`), as the page had them before the Worker.
 */
export const optInAgain = (html: string) =>
  html.replace(/<script src="([^"]+)"([^>]*) data-binast-size=/g, '<script type="binast" src="$1"$2 data-binast-size=');

/**
 * Serves the loader's pages with `data-always` on the loader's tag: the cost model is skipped and every script is
 * fetched as BinaryAST, which the tests of the decoding path and its fallbacks need whatever the size hints say.
 * The Worker, which does not see the attribute added here, may have written scripts back as plain ones: they are
 * opted in again. `policy`: a Content-Security-Policy header added to the page's response, the way a site would
 * send it.
 */
export async function forceBinast(page: Page, policy?: string): Promise<void> {
  await page.route(loaderPages, async (route) => {
    const response = await route.fetch();
    // The loader's own tag, not the first mention of its file name: the Worker may move the tag after the page's
    // text (all scripts written back plain), and a demo page's prose may name the file.
    const body = optInAgain(await response.text()).replace(
      /(<script\b[^>]*\ssrc="[^"]*binast-loader\.min\.js")/,
      '$1 data-always',
    );
    const headers = policy ? { ...response.headers(), 'content-security-policy': policy } : response.headers();
    await route.fulfill({ response, body, headers });
  });
}

/** Renders the plain-script page and returns the app's markup, the reference every loader variant must match. */
export async function plainRender(page: Page): Promise<string> {
  await page.goto('/demo/loader-libs-plain');
  await expect(page.locator('#root .bar')).toHaveCount(4);
  return page.locator('#root').innerHTML();
}

/** Opens the loader page and returns its records once every script ran, asserting that the app rendered. */
export async function loaderRender(page: Page, path = '/demo/loader-libs') {
  await page.goto(path);
  const records = await loaderRecords(page);
  await expect(page.locator('#root .bar')).toHaveCount(4);
  return { records, html: await page.locator('#root').innerHTML() };
}

/** The paths of the decoded copies the loader keeps in Cache Storage (decoded-cache.ts), oldest first. */
export function storedCopies(page: Page): Promise<string[]> {
  return page.evaluate(async () =>
    (await (await caches.open('binast-decoded-v1')).keys()).map((request) => new URL(request.url).pathname),
  );
}

/** Collects uncaught page errors, which would mean a script ran twice, out of order or broken. */
export function pageErrors(page: Page): Error[] {
  const errors: Error[] = [];
  page.on('pageerror', (error) => errors.push(error));
  return errors;
}

/**
 * Asks the Worker for each script as BinaryAST until it answers with an encoding: the first request misses and
 * starts the background encode. All encodes are started first, then polled, within `deadlineMs` overall.
 */
export async function primeBinast(request: APIRequestContext, paths: string[], deadlineMs = 45_000): Promise<void> {
  const headers = { accept: 'application/javascript-binast, */*' };
  const isBinast = async (path: string) =>
    ((await request.get(path, { headers })).headers()['content-type'] ?? '').includes('application/javascript-binast');
  const pending = new Set(paths);
  const endMs = Date.now() + deadlineMs;
  while (pending.size > 0 && Date.now() < endMs) {
    for (const path of [...pending]) if (await isBinast(path)) pending.delete(path);
    if (pending.size > 0) await new Promise((resolve) => setTimeout(resolve, 250));
  }
  expect([...pending], 'scripts still served as JavaScript').toEqual([]);
}

export const libraryPaths = [
  '/demo/loader/lib/react.js',
  '/demo/loader/lib/react-dom.js',
  '/demo/loader/lib/d3.js',
  '/demo/loader/lib/lodash.js',
  '/demo/loader-app.js',
];
