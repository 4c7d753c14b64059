import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { scriptKey } from '@speedkit/binast-loader/model';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/binast/config';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastHintMiddleware, encodeAsks, gzipBytes, hintKey, parseHint } from '../../src/binast/size-hint';
import { binastAccept, callBinast, clearVariants, demoScript } from './helpers';

beforeEach(clearVariants);

const loaderTag = '<script src="/binast/binast-loader.min.js"></script>';
const page = (body: string) => `<!doctype html><html><head>${loaderTag}</head><body>${body}</body></html>`;
/** `page(body)` as the Worker serves it when the first script of the body may need the loader: moved in front of it. */
const pageWithLoaderInBody = (body: string) =>
  `<!doctype html><html><head></head><body>${loaderTag}${body}</body></html>`;

async function annotate(html: string, headers: Record<string, string> = {}, cookie?: string) {
  const next = async () =>
    new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8', etag: '"p1"', ...headers } });
  const response = await binastHintMiddleware(
    new Request('http://site.test/article', { headers: cookie === undefined ? {} : { cookie } }),
    env as Env,
    createExecutionContext(),
    next,
  );
  return { response, text: await response.text() };
}

/** A script's hint key: the pages here are site.test's, scripts through `callBinast` speedkit.test's. */
const keyOf = (path: string, host = 'speedkit.test') => hintKey(new URL(`http://${host}${path}`), defaultConfig);
const putHint = (path: string, hint: string) => env.VARIANTS?.put(keyOf(path, 'site.test'), hint);

describe('size hint parsing', () => {
  it('reads two positive byte counts', () => {
    expect(parseHint('1200 900')).toEqual([1200, 900]);
    expect(parseHint(' 5 7\n')).toEqual([5, 7]);
  });

  it('rejects anything else', () => {
    for (const text of ['', '12', '0 5', '5 0', '1 2 3', '-1 5', '1.5 2', 'a b', '12345678901 1']) {
      expect(parseHint(text)).toBeNull();
    }
  });
});

describe('the Worker stores a size hint with each encoding', () => {
  it('gzips both formats and stores their sizes under the script path', async () => {
    await callBinast(demoScript, binastAccept);
    const stored = await env.VARIANTS?.get(keyOf(demoScript));
    const hint = parseHint((await stored?.text()) ?? '');
    expect(hint).not.toBeNull();
    const [jsBytes, binastBytes] = hint as [number, number];
    const source = await (await env.ASSETS.fetch(`http://speedkit.test${demoScript}`)).arrayBuffer();
    expect(jsBytes).toBe(await gzipBytes(new Uint8Array(source)));
    const encoded = await callBinast(demoScript, binastAccept);
    expect(encoded.note).toBe('hit');
    expect(binastBytes).toBe(await gzipBytes(encoded.bytes));
  });

  it('adds the hint of an encoding stored before hints existed when it serves it', async () => {
    await callBinast(demoScript, binastAccept);
    await env.VARIANTS?.delete(keyOf(demoScript));
    const served = await callBinast(demoScript, binastAccept);
    expect(served.note).toBe('hit');
    const stored = await env.VARIANTS?.get(keyOf(demoScript));
    expect(parseHint((await stored?.text()) ?? '')?.[1]).toBe(await gzipBytes(served.bytes));
  });
});

describe('pages get the hint on their opt-in scripts', () => {
  it('puts the hint on classic and module opt-in scripts, and preloads the ones BinaryAST cannot win', async () => {
    await putHint('/js/big.js', '1000 1200');
    await putHint('/js/mid.js', '1000 700');
    await putHint('/js/small.js', '1000 300');
    await putHint('/js/widget.mjs', '800 900');
    const { response, text } = await annotate(
      page(
        '<script type="binast" src="/js/big.js"></script><script type="binast" src="/js/mid.js"></script>' +
          '<script type="binast" src="/js/small.js" defer></script>' +
          '<script type="binast-module" src="/js/widget.mjs" crossorigin="anonymous" nonce="n1"></script>',
      ),
    );
    // Larger: BinaryAST can never win. 0.7×: smaller, but the loader's model says decoding costs more than the
    // 300 bytes save even at 1.6 Mbit/s. Both blocking: written back as the plain scripts, the hint kept for the
    // loader's record, no preload needed (the preload scanner finds them).
    expect(text).toContain('<script src="/js/big.js" data-binast-size="1000 1200"></script>');
    expect(text).toContain('<script src="/js/mid.js" data-binast-size="1000 700"></script>');
    expect(text).not.toContain('href="/js/big.js"');
    // 0.3×: BinaryAST can win on a slow link: the loader decides at run time, and nothing downloads the JavaScript
    // ahead of it.
    expect(text).toContain('</script><script type="binast" src="/js/small.js" defer data-binast-size="1000 300">');
    expect(text).toContain(
      '<link rel="modulepreload" as="script" href="/js/widget.mjs" crossorigin="anonymous" nonce="n1"><script type="binast-module"',
    );
    expect(response.headers.get('etag')).toBe('W/"p1"');
    expect(response.headers.get('content-length')).toBeNull();
  });

  it("decides from the visitor's earlier view (its cookies) and hands the loader the link speed and decoder", async () => {
    // The context layout's d3 (gzip -9 of both formats): on a slow link with the decoder cached and a streaming
    // decoder, the loader's model picks BinaryAST; a visitor the Worker knows nothing about gets the plain script.
    await putHint('/js/d3.js', '93434 73599');
    const markup = page('<script type="binast" src="/js/d3.js"></script>');
    const unknown = await annotate(markup);
    expect(unknown.text).toContain('<script src="/js/d3.js" data-binast-size="93434 73599"></script>');
    const slowWithDecoder = await annotate(markup, {}, 'theme=dark; binast-link=1.4; binast-decoder=1');
    // No earlier view ran d3 plain (no plain-script cookie), so no plain copy is cached: the loader is going to ask
    // for BinaryAST at once, and the page preloads it by its own URL, which the loader fetches.
    expect(slowWithDecoder.text).toContain(
      `<link rel="preload" as="fetch" crossorigin href="/js/d3.js?__binast">${loaderTag}<script type="binast" src="/js/d3.js" data-binast-size="93434 73599 1.4 1" data-binast-fetch="/js/d3.js?__binast"></script>`,
    );
    expect(slowWithDecoder.text).not.toContain('as="script"');
    // An earlier view ran this d3 plain (its key in the plain-script cookie): its copy in the HTTP cache beats
    // BinaryAST, so the page gets the plain script back, as a visitor without cookies does.
    const ranPlain = await annotate(
      markup,
      {},
      `binast-link=1.4; binast-decoder=1; binast-plain=${scriptKey('/js/d3.js', 93434)}`,
    );
    expect(ranPlain.text).toContain('<script src="/js/d3.js" data-binast-size="93434 73599 1.4 1"></script>');
    // A new deploy at the same URL (another size): the earlier copy is not this script; BinaryAST at once.
    const redeployed = await annotate(
      markup,
      {},
      `binast-link=1.4; binast-decoder=1; binast-plain=${scriptKey('/js/d3.js', 93000)}`,
    );
    expect(redeployed.text).toContain('data-binast-fetch="/js/d3.js?__binast"');
    // A query of its own keeps its place; no preload for a script with `integrity`, which cannot use BinaryAST.
    await putHint('/js/d3.js', '93434 73599');
    const versioned = await annotate(
      page('<script type="binast" src="/js/d3.js?v=2"></script>'),
      {},
      'binast-link=1.4; binast-decoder=1',
    );
    expect(versioned.text).toContain('<link rel="preload" as="fetch" crossorigin href="/js/d3.js?v=2&amp;__binast">');
    const pinned = await annotate(
      page('<script type="binast" src="/js/d3.js" integrity="sha384-x"></script>'),
      {},
      'binast-link=1.4; binast-decoder=1',
    );
    expect(pinned.text).toContain('data-binast-size="93434 73599 1.4 1"></script>');
    expect(pinned.text).not.toContain('rel="preload"');
    // Measured fast, or no decoder yet: the loader would run the plain script, so the page gets it; the hint still
    // carries what the cookies say.
    for (const [cookie, hint] of [
      ['binast-link=48.2; binast-decoder=1', '48.2 1'],
      ['binast-link=1.4', '1.4'],
      ['binast-link=1.4; binast-decoder=0', '1.4 1'],
    ]) {
      const { text } = await annotate(markup, {}, cookie);
      expect(text).toContain(`<script src="/js/d3.js" data-binast-size="93434 73599 ${hint}"></script>`);
    }
  });

  it('writes back blocking scripts only up to the first blocking one the loader runs, and preloads the rest', async () => {
    await putHint('/js/big.js', '1000 1200');
    await putHint('/js/small.js', '1000 300');
    await putHint('/js/mid.js', '1000 700');
    const { text } = await annotate(
      page(
        '<script type="binast" src="/js/big.js" id="b" nonce="S1" onload="seen()"></script>' +
          '<script type="binast" src="/js/small.js"></script><script type="binast" src="/js/mid.js"></script>',
      ),
    );
    // Attributes stay (the browser fires the handlers, as the loader did on the opt-in element).
    expect(text).toContain(
      '<script src="/js/big.js" id="b" nonce="S1" onload="seen()" data-binast-size="1000 1200"></script>',
    );
    // small.js may win on a slow link: the loader decides at run time, so mid.js, after it, must wait for its turn
    // through the loader too, with its preload.
    expect(text).toContain('<script type="binast" src="/js/small.js" data-binast-size="1000 300"></script>');
    expect(text).toContain(
      '<link rel="preload" as="script" href="/js/mid.js"><script type="binast" src="/js/mid.js" data-binast-size="1000 700" data-binast-preloaded="">',
    );
  });

  it('neither writes back nor preloads anything under a loader with data-always (it asks for BinaryAST)', async () => {
    await putHint('/js/big.js', '1000 1200');
    const body =
      '<script src="/binast/binast-loader.min.js" data-always></script><script type="binast" src="/js/big.js"></script>';
    const { text } = await annotate(page(body));
    expect(text).toContain('<script type="binast" src="/js/big.js" data-binast-size="1000 1200"></script>');
    expect(text).not.toContain('rel="preload"');
  });

  it('gives a written-back script the nonce of the loader, which the loader would have given it', async () => {
    await putHint('/js/big.js', '1000 1200');
    const loaderTag = '<script nonce="L1" src="/binast/binast-loader.min.js"></script>';
    const html = (body: string) => `<!doctype html><html><head>${body}</head><body></body></html>`;
    const { text } = await annotate(html(`${loaderTag}<script type="binast" src="/js/big.js" nonce="S1"></script>`));
    expect(text).toContain('<script src="/js/big.js" nonce="L1" data-binast-size="1000 1200"></script>');
  });

  it("gives the preload the loader's nonce, which the loader gives the plain script, else the script's own", async () => {
    await putHint('/js/big.js', '1000 1200');
    const loaderTag = '<script nonce="L1" src="/binast/binast-loader.min.js"></script>';
    const html = (body: string) => `<!doctype html><html><head>${body}</head><body></body></html>`;
    // Deferred: preloaded and left to the loader, not written back.
    const optIn = '<script type="binast" src="/js/big.js" nonce="S1" defer></script>';
    expect((await annotate(html(`${loaderTag}${optIn}`))).text).toContain(
      '<link rel="preload" as="script" href="/js/big.js" nonce="L1"><script',
    );
    expect((await annotate(html(optIn))).text).toContain(
      '<link rel="preload" as="script" href="/js/big.js" nonce="S1">',
    );
  });

  it('leaves alone plain scripts, cross-origin ones and scripts without a stored hint', async () => {
    await putHint('/js/big.js', '1000 1200');
    const body =
      '<script src="/js/big.js"></script><script type="binast" src="https://cdn.example/js/big.js"></script>' +
      '<script type="binast" src="/js/unknown.js"></script><script type="binast">inline()</script>';
    const { text } = await annotate(page(body));
    // Only the loader's tag moved, to just before the first script (which may read `binast`).
    expect(text).toBe(pageWithLoaderInBody(body));
  });

  it('ignores a hint it cannot read', async () => {
    await putHint('/js/big.js', 'garbage');
    const body = '<script type="binast" src="/js/big.js"></script>';
    expect((await annotate(page(body))).text).toBe(pageWithLoaderInBody(body));
  });

  it("says Vary: Cookie when the loader's cookies decided the markup, and only then", async () => {
    await putHint('/js/d3.js', '93434 73599');
    const markup = page('<script type="binast" src="/js/d3.js"></script>');
    const personal = await annotate(markup, { vary: 'Accept-Encoding' }, 'binast-link=1.4; binast-decoder=1');
    expect(personal.response.headers.get('vary')).toBe('Accept-Encoding, Cookie');
    const plainBefore = await annotate(markup, {}, `binast-plain=${scriptKey('/js/d3.js', 93434)}`);
    expect(plainBefore.response.headers.get('vary')).toBe('Cookie');
    // Other cookies decide nothing: the page is the one every visitor without the loader's cookies gets.
    expect((await annotate(markup, {}, 'session=abc')).response.headers.get('vary')).toBeNull();
  });

  it("passes a page the origin marked no-transform byte for byte, whatever the visitor's cookies", async () => {
    await putHint('/js/d3.js', '93434 73599');
    const markup = page('<script type="binast" src="/js/d3.js"></script>');
    const headers = { 'cache-control': 'public, no-transform' };
    const { response, text } = await annotate(markup, headers, 'binast-link=1.4; binast-decoder=1');
    expect(text).toBe(markup);
    expect(response.headers.get('etag')).toBe('"p1"');
  });

  it('passes non-HTML responses and errors through untouched', async () => {
    const next = async () => new Response('x', { headers: { 'content-type': 'text/javascript', etag: '"j"' } });
    const response = await binastHintMiddleware(
      new Request('http://site.test/a.js'),
      env as Env,
      createExecutionContext(),
      next,
    );
    expect(response.headers.get('etag')).toBe('"j"');
    const missing = await annotate('<p>gone</p>', {});
    expect(missing.text).toBe('<p>gone</p>');
  });
});

describe("the loader's own tag moves down to the first script that needs it", () => {
  const big = '<script type="binast" src="/js/big.js"></script>';
  const scripts = `${big}<script type="binast" src="/js/mid.js"></script><script type="binast" src="/js/small.js"></script>`;
  beforeEach(async () => {
    await putHint('/js/big.js', '1000 1200');
    await putHint('/js/mid.js', '1000 700');
    await putHint('/js/small.js', '1000 300');
  });

  it('runs after every script when all of them were written back (a repeat view)', async () => {
    const ranPlain = ['/js/big.js', '/js/mid.js', '/js/small.js'].map((path) => scriptKey(path, 1000)).join('.');
    const { text } = await annotate(page(scripts), {}, `binast-link=1.4; binast-decoder=1; binast-plain=${ranPlain}`);
    expect(text).toBe(
      '<!doctype html><html><head></head><body>' +
        '<script src="/js/big.js" data-binast-size="1000 1200 1.4 1"></script>' +
        '<script src="/js/mid.js" data-binast-size="1000 700 1.4 1"></script>' +
        '<script src="/js/small.js" data-binast-size="1000 300 1.4 1"></script>' +
        `${loaderTag}</body></html>`,
    );
  });

  it('comes just before the first opt-in script left to it, after the written-back ones', async () => {
    const { text } = await annotate(page(scripts));
    // A first visit: small.js may win on a slow link, so the loader decides it at run time.
    expect(text).toContain(
      '<script src="/js/mid.js" data-binast-size="1000 700"></script>' +
        `${loaderTag}<script type="binast" src="/js/small.js" data-binast-size="1000 300"></script>`,
    );
    expect(text).toContain('<head></head>');
  });

  it('stays before any other script that runs, which may use `binast`, and skips data scripts', async () => {
    const html =
      `<!doctype html><html><head>${loaderTag}<script type="application/ld+json">{}</script>` +
      `<script>binast.ready.then(report)</script></head><body>${scripts}</body></html>`;
    const { text } = await annotate(html);
    expect(text).toContain(`<script type="application/ld+json">{}</script>${loaderTag}<script>binast.ready`);
    const module = `<!doctype html><html><head>${loaderTag}</head><body><script type="module" src="/m.js"></script></body></html>`;
    expect((await annotate(module)).text).toContain(`<body>${loaderTag}<script type="module"`);
  });

  it('keeps every attribute of the tag as written, and its place when it is async, deferred or inlined', async () => {
    const tag = `<script src="/binast/binast-loader.min.js?v=2" nonce="L&amp;1" data-beacon='/b?a=1&amp;c="2"' data-always></script>`;
    const written = await annotate(`<!doctype html><html><head>${tag}</head><body>${big}</body></html>`);
    // The values come as they stand in the page (entities undecoded) and go back double-quoted.
    const moved =
      '<script src="/binast/binast-loader.min.js?v=2" nonce="L&amp;1" data-beacon="/b?a=1&amp;c=&quot;2&quot;" data-always=""></script>';
    expect(written.text).toBe(
      `<!doctype html><html><head></head><body>${moved}<script type="binast" src="/js/big.js" data-binast-size="1000 1200"></script></body></html>`,
    );
    for (const kept of [
      '<script async src="/binast/binast-loader.min.js"></script>',
      '<script defer src="/binast/binast-loader.min.js"></script>',
      '<script data-decoder="/binast/binast.js">/* the loader, inlined */</script>',
    ]) {
      const html = `<!doctype html><html><head>${kept}</head><body>${scripts}</body></html>`;
      expect((await annotate(html)).text).toContain(`<head>${kept}</head>`);
    }
  });

  it('never goes into a <template> or <noscript>, where it would not run', async () => {
    const html =
      `<!doctype html><html><head>${loaderTag}</head><body><template><script src="/t.js"></script></template>` +
      `<noscript><script src="/n.js"></script></noscript>${big}</body></html>`;
    const { text } = await annotate(html);
    // big.js is written back, so the loader ends the body; the scripts in the template and noscript did not count.
    expect(text).toContain(
      '<template><script src="/t.js"></script></template><noscript><script src="/n.js"></script></noscript>' +
        `<script src="/js/big.js" data-binast-size="1000 1200"></script>${loaderTag}</body>`,
    );
  });

  it('knows the loader the rewrite inserts by its configured URL, whatever its file name', async () => {
    const tag = '<script src="/assets/ldr.js"></script>';
    const html = `<!doctype html><html><head>${tag}</head><body>${big}</body></html>`;
    const plainEnv = env as Env;
    const withRewrite = { ...plainEnv, BINAST_REWRITE_LOADER: '/assets/ldr.js' } as Env;
    const run = async (environment: Env) => {
      const next = async () => new Response(html, { headers: { 'content-type': 'text/html' } });
      const response = await binastHintMiddleware(
        new Request('http://site.test/article'),
        environment,
        createExecutionContext(),
        next,
      );
      return response.text();
    };
    expect(await run(withRewrite)).toContain(
      `<script src="/js/big.js" data-binast-size="1000 1200"></script>${tag}</body>`,
    );
    expect(await run(plainEnv)).toContain(`<head>${tag}</head>`);
  });

  it('ends the document when the page has no closing body tag', async () => {
    const { text } = await annotate(`<!doctype html><head>${loaderTag}</head><body>${big}`);
    expect(text).toBe(
      `<!doctype html><head></head><body><script src="/js/big.js" data-binast-size="1000 1200"></script>${loaderTag}`,
    );
  });
});

describe('opt-in scripts without a hint are encoded for the next view', () => {
  /** The page through the hint middleware, in front of the BinaryAST middleware and the static assets. */
  async function view(html: string) {
    const ctx = createExecutionContext();
    const assets = (request: Request) => env.ASSETS.fetch(request);
    const below = (request: Request) =>
      new URL(request.url).pathname === '/article'
        ? Promise.resolve(new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } }))
        : binastMiddleware(request, env as Env, ctx, assets);
    const response = await binastHintMiddleware(new Request('http://speedkit.test/article'), env as Env, ctx, below);
    const text = await response.text();
    await waitOnExecutionContext(ctx);
    return text;
  }

  it('asks for the BinaryAST of a hintless opt-in script in the background, so the next view has its hint', async () => {
    const html = page(`<script type="binast" src="${demoScript}"></script>`);
    // Nothing else asks: the loader asks for BinaryAST only when the script carries a hint.
    expect(await view(html)).not.toContain('data-binast-size');
    expect(parseHint((await (await env.VARIANTS?.get(keyOf(demoScript)))?.text()) ?? '')).not.toBeNull();
    expect(await view(html)).toContain('data-binast-size=');
  });

  it('asks for one script at most once per interval in an isolate, and forgets the oldest beyond its bound', () => {
    expect(encodeAsks.claim('http://a.test/x.js', 0)).toBe(true);
    expect(encodeAsks.claim('http://a.test/x.js', 60_000)).toBe(false);
    expect(encodeAsks.claim('http://a.test/x.js', 11 * 60_000)).toBe(true);
    for (let i = 0; i < 1000; i += 1) encodeAsks.claim(`http://a.test/${i}.js`, 11 * 60_000);
    expect(encodeAsks.claim('http://a.test/x.js', 11 * 60_000 + 1)).toBe(true);
  });
});
