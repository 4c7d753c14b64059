// The page steps every bench:loader tool takes (run.mjs, probe.mjs, repeat-cost.mjs): a view measured until the demo
// app ran, an earlier view loaded completely, and the decoder started so its files are in the HTTP cache.

/**
 * Navigates to `url` and waits until the demo app ran (its `app:executed` mark).
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 */
export async function loadUntilExecuted(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => performance.getEntriesByName('app:executed').length > 0, null, {
    timeout: 120_000,
  });
}

/**
 * An earlier view (a previous deploy, or the first of two views), loaded completely before the measured one: until
 * the app ran, then on a loader page (`remembers`) until the loader wrote its link cookie, then until the network is
 * idle. Every page waits alike (until 2026-11-26 10:00 UTC only the loader's did): what an earlier view still does
 * after the mark (its load event, the loader's after-load import, any decoder download, the browser's own cache
 * writes) must not overlap the measured view of one page and not of the other.
 * @param {import('@playwright/test').Page} page
 * @param {string} url
 * @param {boolean} remembers
 */
export async function earlierView(page, url, remembers) {
  await loadUntilExecuted(page, url);
  if (remembers) await page.waitForFunction(() => document.cookie.includes('binast-link='), null, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
}

/**
 * Loads the decoder on the page as remember.ts does after a slow view (`warm`): all its files (client, worker, glue,
 * Wasm) into the HTTP cache, its Worker started once and stopped again.
 * @param {import('@playwright/test').Page} page
 */
export function startDecoder(page) {
  return page.evaluate(() =>
    import(/** @type {string} */ ('/demo/loader/binast.js')).then(
      (/** @type {{ warm: () => Promise<unknown> }} */ decoder) => decoder.warm(),
    ),
  );
}
