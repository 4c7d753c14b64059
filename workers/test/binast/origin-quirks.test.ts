import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeScript } from '../../src/binast/codec';
import { defaultConfig } from '../../src/binast/config';
import { binastMiddleware } from '../../src/binast/middleware';
import { prebuiltEncoding } from '../../src/binast/prebuilt';
import { variantKey } from '../../src/binast/store';
import { sha256Hex } from '../../src/shared/sha256';
import { binastAccept, clearVariants } from './helpers';

// Origins that bend HTTP: what the standalone Worker meets in front of a site owner's server.

beforeEach(clearVariants);

type Origin = (request: Request) => Promise<Response>;

/** One request for `path` asking for BinaryAST, and everything it scheduled. */
async function get(next: Origin, path = '/app.js') {
  const ctx = createExecutionContext();
  const request = new Request(`http://speedkit.test${path}`, { headers: { accept: binastAccept } });
  const response = await binastMiddleware(request, env, ctx, next);
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes, note: response.headers.get('x-speedkit-binast') ?? '' };
}

const script = (source: string, headers: Record<string, string>): Origin => {
  return async (request) => {
    if (new URL(request.url).pathname.endsWith('.binast')) return new Response(null, { status: 404 });
    return new Response(source, { headers: { 'content-type': 'text/javascript', ...headers } });
  };
};

/** The JavaScript a response stands for: its text, or the decode of its BinaryAST. */
const served = ({ response, bytes }: { response: Response; bytes: Uint8Array }) =>
  response.headers.get('content-type') === 'application/javascript-binast'
    ? decodeScript(bytes)
    : new TextDecoder().decode(bytes);

describe('an ETag that names more than one body', () => {
  it('never serves the encoding of one body for another sent under the same ETag and size', async () => {
    // An mtime-and-size ETag after a build that dates every file alike: two versions, one ETag.
    const headers = { etag: '"1-15"' };
    const v1 = script('var version = "v1";', headers);
    const v2 = script('var version = "v2";', headers);
    await get(v1);
    expect(served(await get(v1))).toBe('var version="v1";');
    const first = await get(v2);
    expect(first.note).toBe('miss; encoding');
    expect(new TextDecoder().decode(first.bytes)).toBe('var version = "v2";');
    // Each version keeps its own encoding: neither evicts the other.
    const second = await get(v2);
    expect(second.note).toBe('hit');
    expect(served(second)).toBe('var version="v2";');
    expect(served(await get(v1))).toBe('var version="v1";');
  });

  it('never serves one visitor’s rendered script to another when the template’s ETag stays', async () => {
    const headers = { etag: 'W/"template-7"', 'cache-control': 'max-age=0' };
    await get(script('var user = "alice";', headers));
    const alice = await get(script('var user = "alice";', headers));
    expect(served(alice)).toBe('var user="alice";');
    const bob = await get(script('var user = "bob";', headers));
    expect(served(bob)).toBe('var user = "bob";');
  });
});

describe('many first requests for one new script at once', () => {
  it('encode it once: the others get the JavaScript while the first encode runs', async () => {
    const source = 'var popular = true;';
    let siblingAsks = 0;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Each encode first asks for the prebuilt file beside the script: counting those counts encodes. The first is
    // held until every request has been answered, so all of them arrive while it runs.
    const next: Origin = async (request) => {
      if (new URL(request.url).pathname.endsWith('.binast')) {
        siblingAsks += 1;
        await held;
        return new Response(null, { status: 404 });
      }
      return new Response(source, { headers: { 'content-type': 'text/javascript', etag: '"p1"' } });
    };
    const contexts = Array.from({ length: 5 }, () => createExecutionContext());
    const request = () => new Request('http://speedkit.test/popular.js', { headers: { accept: binastAccept } });
    const responses = await Promise.all(contexts.map((ctx) => binastMiddleware(request(), env, ctx, next)));
    for (const response of responses) expect(await response.text()).toBe(source);
    const notes = responses.map((response) => response.headers.get('x-speedkit-binast'));
    expect(notes.filter((note) => note === 'miss; encoding')).toHaveLength(1);
    release();
    await Promise.all(contexts.map((ctx) => waitOnExecutionContext(ctx)));
    expect(siblingAsks).toBe(1);
    expect((await get(next, '/popular.js')).note).toBe('hit');
  });
});

describe('an origin that negotiates strictly', () => {
  it('is asked for what it has, so a script asked for by BinaryAST alone is still encoded', async () => {
    const accepts: string[] = [];
    // 406 unless Accept allows JavaScript, as a framework checking Accept against the type it produces answers.
    const strict: Origin = async (request) => {
      const accept = request.headers.get('accept') ?? '';
      if (new URL(request.url).pathname.endsWith('.binast')) return new Response(null, { status: 404 });
      accepts.push(accept);
      if (!/\*\/\*|javascript(?!-binast)/.test(accept)) return new Response('not acceptable', { status: 406 });
      return new Response('var strict = 1;', { headers: { 'content-type': 'text/javascript', etag: '"n1"' } });
    };
    const ask = async (accept: string) => {
      const ctx = createExecutionContext();
      const request = new Request('http://speedkit.test/strict.js', { headers: { accept } });
      const response = await binastMiddleware(request, env, ctx, strict);
      const bytes = new Uint8Array(await response.arrayBuffer());
      await waitOnExecutionContext(ctx);
      return { response, bytes, note: response.headers.get('x-speedkit-binast') ?? '' };
    };
    // The size hints' background ask sends BinaryAST alone.
    const first = await ask('application/javascript-binast');
    expect(first.response.status).toBe(200);
    expect(first.note).toBe('miss; encoding');
    expect(served(await ask('application/javascript-binast'))).toBe('var strict=1;');
    expect((await ask('application/javascript-binast;q=1, text/javascript;q=0.5')).note).toBe('hit');
    expect(accepts).toEqual(['*/*', '*/*', 'text/javascript;q=0.5']);
  });
});

describe('a script cut short on a connection that closed cleanly', () => {
  it('fails for its cut bytes only: the complete script under the same ETag is encoded and served', async () => {
    const complete = 'function greet(name) {\n  return "hello " + name;\n}\ngreet("you");\n';
    // What arrives when an HTTP/1.0-style origin drops the connection mid-body: no error, just fewer bytes.
    const cut = complete.slice(0, 30);
    const headers = { etag: '"9a-64"' };
    expect((await get(script(cut, headers))).note).toBe('miss; encoding');
    expect((await get(script(cut, headers))).note).toBe('unsupported');
    expect((await get(script(complete, headers))).note).toBe('miss; encoding');
    const whole = await get(script(complete, headers));
    expect(whole.note).toBe('hit');
    expect(served(whole)).toBe('function greet(name){return "hello " + name;}greet("you");');
  });
});

describe('an encode that died with its isolate (memory or CPU limit)', () => {
  const source = 'var heavy = [1, 2, 3];';
  const next = script(source, { etag: '"h1"' });
  /** Leaves the attempt marker an encode of `source` started `agoMs` ago and never removed, after `tries` tries. */
  async function leaveAttempt(agoMs: number, tries: number) {
    const bodyKey = await variantKey(
      'speedkit.test/heavy.js',
      await sha256Hex(new TextEncoder().encode(source)),
      defaultConfig,
    );
    const customMetadata = { startedMs: String(Date.now() - agoMs), tries: String(tries) };
    await env.VARIANTS?.put(`${bodyKey}.encoding`, '', { customMetadata });
  }

  it('is not started again while another may still be running it', async () => {
    await leaveAttempt(1_000, 1);
    expect((await get(next, '/heavy.js')).note).toBe('miss; encoding elsewhere');
    expect((await get(next, '/heavy.js')).note).toBe('miss; encoding elsewhere');
  });

  it('is tried once more, then the script stays JavaScript instead of taking down isolate after isolate', async () => {
    await leaveAttempt(10 * 60_000, 1);
    expect((await get(next, '/heavy.js')).note).toBe('miss; encoding');
    expect((await get(next, '/heavy.js')).note).toBe('hit');
    await clearVariants();
    await leaveAttempt(10 * 60_000, 2);
    const given = await get(next, '/heavy.js');
    expect(given.note).toBe('unsupported');
    expect(new TextDecoder().decode(given.bytes)).toBe(source);
    expect((await get(next, '/heavy.js')).note).toBe('unsupported');
  });
});

describe('a revalidation by a client that did not ask for BinaryAST', () => {
  it('gets the origin’s 304 with the Vary: Accept its 200 carries', async () => {
    const revalidating: Origin = async (request) =>
      request.headers.get('if-none-match') === '"r1"'
        ? new Response(null, { status: 304, headers: { etag: '"r1"', vary: 'Accept-Encoding' } })
        : new Response('var r = 1;', { headers: { 'content-type': 'text/javascript', etag: '"r1"' } });
    const ctx = createExecutionContext();
    const request = new Request('http://speedkit.test/r.js', { headers: { accept: '*/*', 'if-none-match': '"r1"' } });
    const response = await binastMiddleware(request, env, ctx, revalidating);
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(304);
    expect(response.headers.get('vary')).toBe('Accept-Encoding, Accept');
    expect(response.headers.get('etag')).toBe('"r1"');
  });
});

describe('an encoding stored before encodings named their bytes', () => {
  it('is never served, and is replaced by one that does', async () => {
    const next = script('var fresh = 1;', { etag: '"old"' });
    const etagKey = await variantKey('speedkit.test/app.js', '"old"', defaultConfig);
    // Another script's encoding under this ETag's key, without the bytes it was made from.
    await get(script('var stale = 1;', { etag: '"other"' }), '/stale.js');
    await get(script('var stale = 1;', { etag: '"other"' }), '/stale.js');
    const staleKey = await variantKey('speedkit.test/stale.js', '"other"', defaultConfig);
    const staleBytes = await (await env.VARIANTS?.get(staleKey))?.arrayBuffer();
    await env.VARIANTS?.put(etagKey, staleBytes ?? new ArrayBuffer(0));
    expect((await get(next)).note).toBe('miss; encoding');
    const hit = await get(next);
    expect(hit.note).toBe('hit');
    expect(served(hit)).toBe('var fresh=1;');
    expect((await env.VARIANTS?.head(etagKey))?.customMetadata?.sourceSha256).toBeDefined();
  });

  it('is not announced to a HEAD either, since no GET would be given it', async () => {
    const etagKey = await variantKey('speedkit.test/app.js', '"old"', defaultConfig);
    await env.VARIANTS?.put(etagKey, new Uint8Array([1, 2, 3]));
    const ctx = createExecutionContext();
    const head = new Request('http://speedkit.test/app.js', { method: 'HEAD', headers: { accept: binastAccept } });
    const origin = async () =>
      new Response(null, { headers: { 'content-type': 'text/javascript', etag: '"old"', 'content-length': '14' } });
    const response = await binastMiddleware(head, env, ctx, origin);
    await waitOnExecutionContext(ctx);
    expect(response.headers.get('x-speedkit-binast')).toBe('miss');
    expect(response.headers.get('content-type')).toBe('text/javascript');
  });
});

describe('one script under many query strings', () => {
  it('is encoded and stored once for its bytes, whatever query a cache-buster or a visitor adds', async () => {
    const next = script('var busted = 1;', { etag: '"q1"' });
    expect((await get(next, '/busted.js?_=1')).note).toBe('miss; encoding');
    for (let stamp = 2; stamp <= 6; stamp += 1) {
      const answer = await get(next, `/busted.js?_=${stamp}`);
      expect(answer.note).toBe('hit');
      expect(served(answer)).toBe('var busted=1;');
    }
    const objects = (await env.VARIANTS?.list({ prefix: 'binast/' }))?.objects ?? [];
    expect(objects).toHaveLength(1);
  });

  it('still gets, for a query that selects other bytes under the same ETag, an encoding of those bytes', async () => {
    const combo = (modules: string) => script(`var modules = "${modules}";`, { etag: '"combo"' });
    await get(combo('a,b'), '/combo.js?a,b');
    expect(served(await get(combo('a,b'), '/combo.js?a,b'))).toBe('var modules="a,b";');
    expect((await get(combo('c,d'), '/combo.js?c,d')).note).toBe('miss; encoding');
    expect(served(await get(combo('c,d'), '/combo.js?c,d'))).toBe('var modules="c,d";');
    expect(served(await get(combo('a,b'), '/combo.js?a,b'))).toBe('var modules="a,b";');
  });
});

describe('an origin that misbehaves on the prebuilt file beside a script', () => {
  const source = new TextEncoder().encode('var beside = 1;');
  const url = new URL('http://speedkit.test/beside.js');

  it('is given up on when it never answers, so the miss encodes here instead of waiting for good', async () => {
    // Holds the request open and ignores the abort, as the worst origin would.
    const silent = () => new Promise<Response>(() => {});
    const lookup = await prebuiltEncoding(url, source, defaultConfig, silent, 50);
    // Transient: a later miss asks again (prebuilt-transient.test.ts).
    expect(lookup).toEqual({ ok: false, reason: '/beside.js.binast took over 50 ms', transient: true });
  });

  it('is given up on when its body breaks off, without throwing', async () => {
    const broken = async () =>
      new Response(
        new ReadableStream({
          start(controller) {
            controller.enqueue(new Uint8Array([0x42]));
            controller.error(new Error('connection reset'));
          },
        }),
      );
    const lookup = await prebuiltEncoding(url, source, defaultConfig, broken);
    expect(lookup.ok).toBe(false);
    expect(lookup.ok ? '' : lookup.reason).toContain('connection reset');
  });
});
