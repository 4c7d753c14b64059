import { expect, type Page, test } from '@playwright/test';
import { type LoaderRecord, loaderRecords, pageErrors, primeBinast } from './binast-loader-helpers';

// Pages shaped like real sites, each opened as plain scripts and through the loader with `data-always` (every script
// asked for as BinaryAST: the path whose execution differs most from the browser's own). The page and its small
// scripts are served here; lodash is the real library, through the Worker (BinaryAST once encoded, else JavaScript:
// both are run by the same code). Whatever the loader cannot preserve must at least not break the rest of the page.

const lodash = '/demo/scripts/lodash.min.js';

/** A page whose scripts are `<script src>` (`plain`) or opted in to the loader with `data-always`. */
function sitePage(plain: boolean, scripts: string[]): string {
  const loader = plain ? '' : '<script src="/demo/loader/binast-loader.min.js" data-always></script>';
  const tag = (src: string) => `<script${plain ? '' : ' type="binast"'} src="${src}"></script>`;
  return `<!doctype html><html><head><meta charset="utf-8"><title>site</title>${loader}
${scripts.map(tag).join('\n')}
</head><body><main id="content"><h1>Article</h1><p>Text the reader came for.</p></main>
${tag('/site/last.js')}
</body></html>`;
}

/** Serves the page at /site/page and each small script at /site/<name>. */
async function serveSite(page: Page, html: string, scripts: Record<string, string>, delayMs = 0): Promise<void> {
  await page.route('**/site/page', (route) => route.fulfill({ contentType: 'text/html', body: html }));
  await page.route('**/site/*.js', async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    // Delayed, the BinaryAST requests are answered after the page's load event, as on a slow link.
    if (delayMs) await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.fulfill({ contentType: 'text/javascript', body: scripts[name] ?? '' });
  });
}

/** The last script records what it saw: whether the page's content and lodash were there when it ran. */
const lastScript = `window.site = { ...window.site, last: { content: !!document.getElementById('content'), lodash: typeof _ } };`;

const recordOf = (records: LoaderRecord[], name: string) => records.find((record) => record.url.endsWith(name));

test('a blocking script that calls document.write does not replace the page the loader runs it in', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const scripts = {
    'write.js': `document.write('<p id="written">written</p>'); window.site = { wrote: true };`,
    'last.js': lastScript,
  };
  for (const plain of [true, false]) {
    await serveSite(page, sitePage(plain, ['/site/write.js', lodash]), scripts);
    await page.goto('/site/page');
    await page.waitForFunction(() => (window as unknown as { site?: { last?: unknown } }).site?.last);
    // Both ways the article and the scripts after the writer are there; only the plain page has the written text.
    await expect(page.locator('#content h1')).toHaveText('Article');
    const site = await page.evaluate(() => (window as unknown as { site: unknown }).site);
    expect(site, plain ? 'plain' : 'loader').toEqual({ wrote: true, last: { content: true, lodash: 'function' } });
    await expect(page.locator('#written')).toHaveCount(plain ? 1 : 0);
    if (!plain) {
      const records = await loaderRecords(page);
      // Small scripts answered as JavaScript run inline, like decoded ones of their size: the path that wrote.
      expect(recordOf(records, '/site/write.js')).toMatchObject({ outcome: 'js', executedFrom: 'inline' });
      expect(['binast', 'js']).toContain(recordOf(records, lodash)?.outcome);
    }
    await page.unrouteAll();
  }
  expect(errors).toEqual([]);
});

test('window.onload set by a script that runs after the load event is called once, as on the plain page', async ({
  page,
}) => {
  const errors = pageErrors(page);
  const scripts = {
    'start.js': `window.site = { ranAt: document.readyState, lodash: typeof _ };
window.onload = () => { site.onload = (site.onload ?? 0) + 1; };`,
    'last.js': lastScript,
  };
  for (const plain of [true, false]) {
    await serveSite(page, sitePage(plain, [lodash, '/site/start.js']), scripts, plain ? 0 : 400);
    await page.goto('/site/page');
    await page.waitForFunction(() => (window as unknown as { site?: { last?: unknown } }).site?.last);
    await page.waitForTimeout(300);
    const site = await page.evaluate(() => (window as unknown as { site: Record<string, unknown> }).site);
    // Through the loader the script ran after the load event (its response came later); plain, before it.
    expect(site.ranAt).toBe(plain ? 'loading' : 'complete');
    expect(site).toMatchObject({ lodash: 'function', onload: 1 });
    await page.unrouteAll();
  }
  expect(errors).toEqual([]);
});

test('an error a script throws reaches window.onerror with the script URL, whichever way the loader runs it', async ({
  page,
}) => {
  type Seen = { message: string; filename: string };
  // 70 KB of comment makes the second copy run from a `blob:` URL, the first runs inline (run-way.ts).
  const thrower = `throw new Error('widget failed');\n`;
  const scripts = { 'small.js': thrower, 'large.js': `${thrower}/*${'x'.repeat(70_000)}*/`, 'last.js': lastScript };
  const seen: Record<string, Seen[]> = {};
  for (const plain of [true, false]) {
    const html = sitePage(plain, ['/site/small.js', '/site/large.js']).replace(
      '<title>',
      `<script>window.seen = []; onerror = (message, filename) => { seen.push({ message, filename }); };</script><title>`,
    );
    await serveSite(page, html, scripts);
    await page.goto('/site/page');
    await page.waitForFunction(() => (window as unknown as { site?: { last?: unknown } }).site?.last);
    seen[String(plain)] = await page.evaluate(() => (window as unknown as { seen: Seen[] }).seen);
    if (!plain) {
      const records = await loaderRecords(page);
      expect(records.map((record) => record.executedFrom).slice(0, 2)).toEqual(['inline', 'blob']);
    }
    await page.unrouteAll();
  }
  const origin = new URL(page.url()).origin;
  const expected = ['small', 'large'].map((name) => ({
    message: 'Uncaught Error: widget failed',
    filename: `${origin}/site/${name}.js`,
  }));
  expect(seen.true).toEqual(expected);
  expect(seen.false).toEqual(expected);
});

test('a library with non-ASCII text runs with the same text on a page in a legacy encoding', async ({
  page,
  request,
}) => {
  // d3 writes negative numbers with U+2212 (a literal "−" in d3.min.js, served as UTF-8). On a windows-1252 page the
  // plain script is still read as UTF-8 (its Content-Type says so); a `blob:` copy without a charset is not. A small
  // script served without a charset is read in the page's encoding: its "é" is one byte, 0xE9.
  test.setTimeout(90_000);
  const d3 = '/demo/scripts/d3.min.js';
  expect((await request.get(d3)).headers()['content-type']).toMatch(/charset=utf-8/i);
  await primeBinast(request, [d3]);
  const latin1Page = (plain: boolean) =>
    Buffer.from(
      sitePage(plain, [d3, '/site/latin.js']).replace('<meta charset="utf-8">', '<meta charset="windows-1252">'),
      'latin1',
    );
  const seen: Record<string, unknown> = {};
  for (const plain of [true, false]) {
    await page.route('**/site/latin.js', (route) =>
      route.fulfill({ contentType: 'text/javascript', body: Buffer.from('window.word = "caf\xe9";', 'latin1') }),
    );
    await page.route('**/site/page', (route) =>
      route.fulfill({ contentType: 'text/html; charset=windows-1252', body: latin1Page(plain) }),
    );
    await page.route('**/site/last.js', (route) =>
      route.fulfill({
        contentType: 'text/javascript',
        body: `${lastScript} window.site.minus = d3.format('.1f')(-1); window.site.word = window.word;`,
      }),
    );
    await page.goto('/site/page');
    await page.waitForFunction(() => (window as unknown as { site?: { last?: unknown } }).site?.last);
    const { minus, word } = await page.evaluate(
      () => (window as unknown as { site: { minus: string; word: string } }).site,
    );
    seen[String(plain)] = { minus, word };
    if (!plain) {
      const records = await loaderRecords(page);
      expect(recordOf(records, d3)).toMatchObject({ outcome: 'binast', executedFrom: 'blob' });
      expect(recordOf(records, '/site/latin.js')).toMatchObject({ outcome: 'js', executedFrom: 'inline' });
    }
    await page.unrouteAll();
  }
  expect(seen.true).toEqual({ minus: '\u22121.0', word: 'caf\xe9' });
  expect(seen.false).toEqual(seen.true);
});

test("the BinaryAST request keeps the script's referrerpolicy and crossorigin credentials", async ({ page }) => {
  const requests: Record<string, { referer?: string; cookie?: string }> = {};
  // The credentialed script on another origin of the same site (another port: cookies ignore ports), whose cookie
  // only a credentialed request carries. Answered here, with the CORS headers a credentialed request needs.
  const other = 'http://localhost:9999';
  await page.context().addCookies([{ name: 'session', value: 's1', url: 'http://localhost:8799' }]);
  const html = sitePage(false, []).replace(
    '</head>',
    `<script type="binast" src="/site/private.js" referrerpolicy="no-referrer"></script>
<script type="binast" src="${other}/site/credentialed.js" crossorigin="use-credentials"></script></head>`,
  );
  await serveSite(page, html, { 'last.js': lastScript });
  await page.route('**/site/{private,credentialed}.js', async (route) => {
    const name = new URL(route.request().url()).pathname.split('/').pop() ?? '';
    const headers = await route.request().allHeaders();
    requests[name] = { referer: headers.referer, cookie: headers.cookie };
    await route.fulfill({
      contentType: 'text/javascript',
      body: '',
      headers: { 'access-control-allow-origin': 'http://localhost:8799', 'access-control-allow-credentials': 'true' },
    });
  });
  await page.goto('http://localhost:8799/site/page');
  const records = await loaderRecords(page);
  expect(records.map((record) => record.outcome)).toEqual(['js', 'js', 'js']);
  // A plain `<script referrerpolicy="no-referrer">` sends no Referer; a `crossorigin="use-credentials"` one sends the
  // other site's cookie.
  expect(requests['private.js']?.referer).toBeUndefined();
  expect(requests['credentialed.js']?.cookie).toBe('session=s1');
});
