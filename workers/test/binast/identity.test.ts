import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeScript } from '../../src/binast/codec';
import { defaultConfig } from '../../src/binast/config';
import { binastMiddleware } from '../../src/binast/middleware';
import { hintKey } from '../../src/binast/size-hint';
import { binastAccept, clearVariants } from './helpers';

beforeEach(clearVariants);

/** One script per host at the same path, with the ETag nginx gives files of one size written in the same second. */
const sites: Record<string, string> = {
  'shop.example': 'var site = "shop";',
  'blog.example': 'var site = "blog";',
};

async function get(
  url: string,
  headers: Record<string, string> = {},
  cacheControl = 'max-age=600',
  originHeaders: Record<string, string> = {},
) {
  const ctx = createExecutionContext();
  const next = async (request: Request) => {
    const body = sites[new URL(request.url).host] ?? '';
    const etag = `"6745a2c0-${body.length.toString(16)}"`;
    const sent = { 'content-type': 'text/javascript', etag, 'cache-control': cacheControl, ...originHeaders };
    return new Response(body, { headers: sent });
  };
  const request = new Request(url, { headers: { accept: binastAccept, ...headers } });
  const response = await binastMiddleware(request, env, ctx, next);
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { bytes, note: response.headers.get('x-speedkit-binast') ?? '' };
}

const storedKeys = async () => (await env.VARIANTS?.list({ prefix: 'binast/' }))?.objects.length ?? 0;

describe('BinaryAST encodings belong to their host and path (and their bytes: origin-quirks.test.ts)', () => {
  it('keeps two sites’ scripts apart when their ETags and sizes match', async () => {
    expect(sites['shop.example']?.length).toBe(sites['blog.example']?.length);
    await get('https://shop.example/app.js');
    expect(decodeScript((await get('https://shop.example/app.js')).bytes)).toBe('var site="shop";');
    // The blog's script has the same path, ETag and size: it must be encoded for itself, not served the shop's.
    expect((await get('https://blog.example/app.js')).note).toBe('miss; encoding');
    expect(decodeScript((await get('https://blog.example/app.js')).bytes)).toBe('var site="blog";');
  });

  it('keeps each site’s size hint for the loader apart too', async () => {
    await get('https://shop.example/app.js');
    const hint = (url: string) => env.VARIANTS?.get(hintKey(new URL(url), defaultConfig));
    expect(await hint('https://shop.example/app.js')).not.toBeNull();
    expect(await hint('https://blog.example/app.js')).toBeNull();
  });

  it('serves the encoding of the plain URL to a cache-busting query of the same bytes', async () => {
    await get('https://shop.example/app.js');
    expect((await get('https://shop.example/app.js?v=2')).note).toBe('hit');
  });
});

describe('a script meant for one visitor', () => {
  it.each([
    ['Cache-Control: private', {}, 'private, max-age=60'],
    ['Cache-Control: no-store', {}, 'no-store'],
    ['an Authorization request', { authorization: 'Bearer abc' }, 'max-age=60'],
  ])('is served as JavaScript and never stored (%s)', async (_name, headers, cacheControl) => {
    for (let round = 0; round < 2; round += 1) {
      const { bytes, note } = await get('https://shop.example/me.js', headers, cacheControl);
      expect(note).toBe('private');
      expect(new TextDecoder().decode(bytes)).toBe(sites['shop.example']);
    }
    expect(await storedKeys()).toBe(0);
  });

  it.each([
    ['Set-Cookie', { 'set-cookie': 'csrf=abc; Path=/' }],
    ['Vary: Cookie', { vary: 'Cookie' }],
    ['Vary: *', { vary: '*' }],
  ])('is served as JavaScript and never stored when the origin answers with %s', async (_name, originHeaders) => {
    for (let round = 0; round < 2; round += 1) {
      const { note } = await get('https://shop.example/session.js', {}, 'max-age=60', originHeaders);
      expect(note).toBe('private');
    }
    expect(await storedKeys()).toBe(0);
  });

  it('is stored when it says it may be shared', async () => {
    await get('https://shop.example/me.js', { authorization: 'Bearer abc' }, 'public, max-age=60');
    expect(await storedKeys()).toBe(1);
  });
});
