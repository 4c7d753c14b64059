import { beforeEach, describe, expect, it } from 'vitest';
import type { Pixels } from '../../src/images/core/pixels';
import { decode, encode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { isSharedResponse } from '../../src/shared/shared-cache';
import { callImages, clearVariants } from './helpers';

/** A flat colour swatch, 64×64: two swatches of different colours encode to PNGs of the same byte length. */
async function swatch(rgb: readonly [number, number, number]): Promise<Uint8Array> {
  await ensureCodecs();
  const data = new Uint8ClampedArray(64 * 64 * 4);
  for (let index = 0; index < data.length; index += 4) data.set([...rgb, 255], index);
  const pixels: Pixels = { data, width: 64, height: 64 };
  return encode(pixels, 'png', 85);
}

/**
 * An origin serving each swatch with the ETag nginx would give both files of one deploy: mtime (the same second)
 * and size (the same bytes).
 */
function origin(files: Record<string, Uint8Array>, cacheControl = 'max-age=600') {
  return async (request: Request) => {
    const body = files[new URL(request.url).pathname];
    if (!body) return new Response('not found', { status: 404 });
    const etag = `"6745a2c0-${body.byteLength.toString(16)}"`;
    const headers = { 'content-type': 'image/png', etag, 'content-length': String(body.length) };
    return new Response(body, { headers: { ...headers, 'cache-control': cacheControl } });
  };
}

const colourOf = async (bytes: Uint8Array) => {
  await ensureCodecs();
  const pixels = await decode(bytes, 'webp', 1);
  return [pixels.data[0], pixels.data[1], pixels.data[2]];
};

describe('stored variants belong to their URL, not only to an ETag', () => {
  beforeEach(clearVariants);

  it('serves each of two same-sized swatches with one ETag in its own colour', async () => {
    const red = await swatch([220, 30, 30]);
    const blue = await swatch([30, 30, 220]);
    expect(red.byteLength).toBe(blue.byteLength);
    const next = origin({ '/swatches/red.png': red, '/swatches/blue.png': blue });
    const accept = { headers: { accept: 'image/webp' } };
    const firstRed = await callImages('/swatches/red.png', accept, {}, next);
    expect(firstRed.header?.format).toBe('webp');
    // The blue swatch's request finds the same ETag and length; the red one's variant must not answer it, whether
    // looked up straight from the headers (a known source) or after reading the body.
    for (let round = 0; round < 2; round += 1) {
      const { bytes, header } = await callImages('/swatches/blue.png', accept, {}, next);
      expect(header?.format).toBe('webp');
      expect(await colourOf(bytes)).toEqual([30, 30, 220]);
    }
  });

  it('names the variants of a response meant for one visitor by its bytes: the next visitor gets their own', async () => {
    const red = await swatch([220, 30, 30]);
    const blue = await swatch([30, 30, 220]);
    const accept = { headers: { accept: 'image/webp' } };
    // One URL, one ETag and length, a different image per visitor (a per-user avatar or chart).
    const forAlice = origin({ '/me/badge.png': red }, 'private, max-age=600');
    const forBob = origin({ '/me/badge.png': blue }, 'private, max-age=600');
    expect(await colourOf((await callImages('/me/badge.png', accept, {}, forAlice)).bytes)).toEqual([220, 30, 30]);
    for (let round = 0; round < 2; round += 1) {
      const { bytes } = await callImages('/me/badge.png', accept, {}, forBob);
      expect(await colourOf(bytes)).toEqual([30, 30, 220]);
    }
  });
});

describe('isSharedResponse', () => {
  const headers = (values: Record<string, string>) => new Headers(values);

  it('shares what any shared cache may store (RFC 9111)', () => {
    expect(isSharedResponse(headers({}), headers({ 'cache-control': 'max-age=60' }))).toBe(true);
    expect(isSharedResponse(headers({}), headers({}))).toBe(true);
    // Cookies do not make a response private: analytics cookies ride along with every image of a site.
    expect(isSharedResponse(headers({ cookie: 'a=1' }), headers({}))).toBe(true);
    expect(isSharedResponse(headers({ authorization: 'Bearer x' }), headers({ 'cache-control': 'public' }))).toBe(true);
    const revalidated = headers({ 'cache-control': 'Must-Revalidate, max-age=0' });
    expect(isSharedResponse(headers({ authorization: 'Bearer x' }), revalidated)).toBe(true);
  });

  it('keeps responses meant for one visitor to themselves', () => {
    expect(isSharedResponse(headers({}), headers({ 'cache-control': 'private' }))).toBe(false);
    expect(isSharedResponse(headers({}), headers({ 'cache-control': 'max-age=60, PRIVATE="set-cookie"' }))).toBe(false);
    expect(isSharedResponse(headers({}), headers({ 'cache-control': 'no-store' }))).toBe(false);
    expect(isSharedResponse(headers({ authorization: 'Basic eA==' }), headers({ 'cache-control': 'max-age=60' }))).toBe(
      false,
    );
  });

  it('keeps a response that sets a cookie to the visitor it was set for', () => {
    const session = headers({ 'cache-control': 'max-age=60', 'set-cookie': 'session=abc; HttpOnly' });
    expect(isSharedResponse(headers({}), session)).toBe(false);
  });

  it('keeps a response the origin varies on who asks (Vary: *, Cookie, Authorization) to that visitor', () => {
    for (const vary of ['*', 'Cookie', 'accept-encoding, COOKIE', 'Origin,Authorization']) {
      expect(isSharedResponse(headers({}), headers({ 'cache-control': 'max-age=60', vary }))).toBe(false);
    }
    // Varying on the request's type or origin does not make the bytes one visitor's.
    expect(isSharedResponse(headers({}), headers({ vary: 'Accept-Encoding, Origin' }))).toBe(true);
  });
});
