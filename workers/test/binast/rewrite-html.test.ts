import { createExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { binastRewriteMiddleware, loaderTypeFor } from '../../src/binast/rewrite-html';

const loader = '/binast/binast-loader.min.js';
/** A page whose every script the loader can run: rewritten. */
const page = `<!doctype html><html><head><title>t</title><script src="/js/lib.js"></script></head><body>
<script src="/js/app.js" defer></script>
<script type="module" src="/js/widget.mjs"></script>
<script type="application/json" src="/data.json"></script>
<script type="application/ld+json">{"@type": "Article"}</script>
<script>   </script>
</body></html>`;
/** Scripts the loader cannot vouch for, each of which keeps a whole page as it is. */
const plainOnes = [
  '<script src="https://cdn.example/x.js"></script>',
  '<script src="/js/pinned.js" integrity="sha384-abc"></script>',
  '<script nomodule src="/js/legacy.js"></script>',
];

async function call(html: string, vars: Record<string, string>, headers: Record<string, string> = {}) {
  const next = async () =>
    new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', etag: '"abc"', ...headers } });
  const response = await binastRewriteMiddleware(
    new Request('http://site.test/article'),
    { ...env, ...vars } as Env,
    createExecutionContext(),
    next,
  );
  return { response, text: await response.text() };
}

describe('HTML rewriting for the BinaryAST loader', () => {
  it('is off by default: the page passes through byte for byte', async () => {
    const { response, text } = await call(page, {});
    expect(text).toBe(page);
    expect(response.headers.get('etag')).toBe('"abc"');
  });

  it('passes a page the origin marked no-transform byte for byte', async () => {
    const headers = { 'cache-control': 'max-age=60, No-Transform' };
    const { response, text } = await call(page, { BINAST_REWRITE_LOADER: loader }, headers);
    expect(text).toBe(page);
    expect(response.headers.get('etag')).toBe('"abc"');
  });

  it('puts the loader first in <head> and marks same-origin classic and module scripts for it', async () => {
    const { response, text } = await call(page, { BINAST_REWRITE_LOADER: loader });
    expect(text).toContain(`<head><script src="${loader}"></script><title>`);
    expect(text).toContain('<script src="/js/lib.js" type="binast">');
    expect(text).toContain('<script src="/js/app.js" defer type="binast">');
    expect(text).toContain('<script type="binast-module" src="/js/widget.mjs">');
    expect(response.headers.get('etag')).toBe('W/"abc"');
    expect(response.headers.get('x-speedkit-binast-rewrite')).toBe('loader');
  });

  it('leaves non-executable scripts as they are', async () => {
    const { text } = await call(page, { BINAST_REWRITE_LOADER: loader });
    expect(text).toContain('<script type="application/json" src="/data.json"></script>');
    expect(text).toContain('<script type="application/ld+json">{"@type": "Article"}</script>');
  });

  it('leaves a whole page as it is when code the loader does not run would overtake the scripts it needs', async () => {
    // `<script src=lib.js>` then an inline `lib.go()`: handed to the loader, lib.js would run after the inline script.
    const pages = [
      page.replace('</body>', '<script>lib.go()</script></body>'),
      page.replace('</body>', '<script type="module">import "/js/x.js"; lib.go();</script></body>'),
      page.replace('<body>', '<body onload="lib.go()">'),
      page.replace('</body>', '<button onclick="lib.go()">go</button></body>'),
      ...plainOnes.map((script) => page.replace('</body>', `${script}</body>`)),
      '<!doctype html><html><head><title>no scripts</title></head><body><p>hi</p></body></html>',
    ];
    for (const html of pages) {
      const { response, text } = await call(html, { BINAST_REWRITE_LOADER: loader });
      expect(text, html).toBe(html);
      expect(response.headers.get('x-speedkit-binast-rewrite'), html).toMatch(/^left: /);
      expect(response.headers.get('etag')).toBe('"abc"');
    }
  });

  it('reads a page in another charset without changing a byte of it', async () => {
    const latin1 = Uint8Array.from(
      [...`${page.replace('</body>', '<script>lib.go("caf\xe9")</script></body>')}`].map((c) => c.charCodeAt(0)),
    );
    const next = async () => new Response(latin1, { headers: { 'content-type': 'text/html; charset=iso-8859-1' } });
    const response = await binastRewriteMiddleware(
      new Request('http://site.test/article'),
      { ...env, BINAST_REWRITE_LOADER: loader } as Env,
      createExecutionContext(),
      next,
    );
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(latin1);
  });

  it('changes nothing in a page without <head>, where the loader could not run first', async () => {
    const bare = '<p>hi</p><script src="/js/app.js"></script>';
    const { text } = await call(bare, { BINAST_REWRITE_LOADER: loader });
    expect(text).toBe(bare);
  });

  it('passes responses that are not HTML untouched', async () => {
    const { text } = await call(
      'var x = "<head>";',
      { BINAST_REWRITE_LOADER: loader },
      {
        'content-type': 'text/javascript',
      },
    );
    expect(text).toBe('var x = "<head>";');
  });

  it('does not mark the loader itself', () => {
    const pageUrl = new URL('http://site.test/');
    const attributes = { type: null, src: loader, integrity: false, nomodule: false };
    expect(loaderTypeFor(attributes, pageUrl, loader)).toBeNull();
    expect(loaderTypeFor({ ...attributes, src: 'http://site.test/a.js' }, pageUrl, loader)).toBe('binast');
  });
});
