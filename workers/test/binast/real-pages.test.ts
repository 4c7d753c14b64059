import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/binast/config';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastRewriteMiddleware } from '../../src/binast/rewrite-html';
import { binastHintMiddleware, hintKey } from '../../src/binast/size-hint';
import { compose } from '../../src/shared/middleware';
import { clearVariants } from './helpers';

// Pages shaped like real sites through the standalone Worker's chain (standalone.ts: hints, rewrite, BinaryAST),
// with `BINAST_REWRITE_LOADER` on: whatever the Worker does to them, the browser must run the same scripts as on the
// page it was given, or the page must pass through untouched.

beforeEach(clearVariants);

const loader = '/binast/binast-loader.min.js';

async function serve(html: string, headers: Record<string, string> = {}, path = '/article', cookie?: string) {
  const origin = async () =>
    new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });
  const chain = compose(
    [binastHintMiddleware, binastRewriteMiddleware, binastMiddleware],
    { ...env, BINAST_REWRITE_LOADER: loader } as Env,
    createExecutionContext(),
    origin,
  );
  const response = await chain(new Request(`http://site.test${path}`, { headers: cookie ? { cookie } : {} }));
  return { response, text: await response.text() };
}

/** Every `<script ...>` start tag of a page. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

describe('pages under a nonce Content-Security-Policy', () => {
  const page = `<!doctype html><html><head><title>t</title>
<script nonce="r4nd0m" src="/js/lib.js"></script></head><body>
<script nonce="r4nd0m" src="/js/app.js" defer></script></body></html>`;

  it('give the loader the nonce the page scripts carry, or the browser would refuse it and run none of them', async () => {
    for (const headers of <Record<string, string>[]>[
      { 'content-security-policy': "script-src 'nonce-r4nd0m' 'strict-dynamic'; object-src 'none'" },
      {},
    ]) {
      const html = Object.keys(headers).length
        ? page
        : page.replace(
            '<title>',
            `<meta http-equiv="Content-Security-Policy" content="script-src 'nonce-r4nd0m'"><title>`,
          );
      const { text } = await serve(html, headers);
      const tags = scriptTags(text);
      const loaderTag = tags.find((tag) => tag.includes(loader));
      expect(loaderTag, text).toBeDefined();
      expect(loaderTag).toContain('nonce="r4nd0m"');
    }
  });

  it('are left as they are when no nonce can admit the loader (hashes, Trusted Types)', async () => {
    const cases: Array<[string, Record<string, string>]> = [
      [
        page.replaceAll(' nonce="r4nd0m"', ''),
        { 'content-security-policy': "script-src 'sha256-AAAA' 'strict-dynamic'" },
      ],
      [page, { 'content-security-policy': "script-src 'nonce-r4nd0m'; require-trusted-types-for 'script'" }],
    ];
    for (const [html, headers] of cases) {
      const { response, text } = await serve(html, headers);
      expect(text).toBe(html);
      expect(response.headers.get('x-speedkit-binast-rewrite')).toMatch(/^left: /);
    }
  });
});

describe('pages that embed the loader themselves', () => {
  it('are not given a second loader, which would run every script twice', async () => {
    for (const src of [loader, '/static/binast-loader.min.js']) {
      const html = `<!doctype html><html><head><script src="${src}"></script></head><body>
<script src="/js/app.js"></script></body></html>`;
      const { text } = await serve(html);
      expect(
        scriptTags(text).filter((tag) => /binast-loader/.test(tag)),
        text,
      ).toHaveLength(1);
    }
  });
});

describe('pages with <base href>', () => {
  const putHint = (path: string, hint: string) =>
    env.VARIANTS?.put(hintKey(new URL(`http://site.test${path}`), defaultConfig), hint);
  // A returning visitor on a slow link with the decoder cached: the Worker preloads BinaryAST by the script's path.
  const slowVisitor = 'binast-link=1.6; binast-decoder=1';

  it('hint and preload the script the browser loads, resolved against <base>, not against the page', async () => {
    // Both paths exist on the site: a different script sits at the path the page URL alone would give.
    await putHint('/shop/app.js', '90000 30000');
    await putHint('/static/app.js', '50000 40000');
    const html = `<!doctype html><html><head><base href="/static/"><script src="${loader}"></script></head><body>
<script type="binast" src="app.js"></script></body></html>`;
    const { text } = await serve(html, {}, '/shop/index.html', slowVisitor);
    expect(text).not.toContain('/shop/app.js');
    expect(text).not.toContain('data-binast-size="90000 30000');
  });

  it('leave a script the browser loads from another site to the browser, and so the page as it is', async () => {
    const html = `<!doctype html><html><head><base href="https://cdn.example/assets/"></head><body>
<script src="app.js"></script></body></html>`;
    const { response, text } = await serve(html, {}, '/shop/index.html');
    expect(text).toBe(html);
    expect(response.headers.get('x-speedkit-binast-rewrite')).toMatch(/^left: 1 script/);
  });

  it('keep the loader tag where <base> cannot change the URL it loads from', async () => {
    await putHint('/static/app.js', '50000 60000');
    // The rewrite puts the loader first in <head>, before the site's <base>: there its URL resolves against the page.
    const html = `<!doctype html><html><head><base href="https://cdn.example/assets/"><title>t</title></head><body>
<script src="http://site.test/static/app.js"></script></body></html>`;
    const { text } = await serve(html, {}, '/shop/index.html');
    const base = text.indexOf('<base');
    const loaderAt = text.indexOf(`src="${loader}"`);
    expect(loaderAt, text).toBeGreaterThan(-1);
    expect(loaderAt, text).toBeLessThan(base);
  });
});

describe('pages with <template>', () => {
  it('keep the scripts of a template as they are: they run when the page stamps it, and the loader never sees them', async () => {
    const html = `<!doctype html><html><head><title>t</title></head><body>
<template id="card"><div class="card"></div><script src="/js/card.js"></script></template>
<script src="/js/app.js"></script></body></html>`;
    const { text } = await serve(html);
    expect(text).toContain(
      '<template id="card"><div class="card"></div><script src="/js/card.js"></script></template>',
    );
    expect(text).toContain('<script src="/js/app.js" type="binast">');
  });
});
