import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/images/core/config';
import { judgesConditions } from '../../src/images/core/revalidation';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

const photo = '/demo/images/small/chelsea.jpg';
const lastModified = 'Wed, 25 Nov 2026 10:00:00 GMT';
const originEtag = '"origin-chelsea-1"';

/**
 * An origin as a site owner's server behaves: the photo with an ETag and a Last-Modified, answering its own
 * conditional requests with 304 (RFC 9110: If-None-Match first, else If-Modified-Since). `seen` records the
 * validators each request reached it with.
 */
function origin(seen: (string | null)[][] = []) {
  return async (request: Request) => {
    const inm = request.headers.get('if-none-match');
    const ims = request.headers.get('if-modified-since');
    seen.push([inm, ims]);
    const headers = {
      'content-type': 'image/jpeg',
      etag: originEtag,
      'last-modified': lastModified,
      'cache-control': 'max-age=60',
    };
    const fresh = inm !== null ? inm === originEtag : ims !== null && Date.parse(lastModified) <= Date.parse(ims);
    if (fresh) return new Response(null, { status: 304, headers });
    return new Response(await assetBytes('small/chelsea.jpg'), { headers });
  };
}

const get = (headers: Record<string, string>) => ({ headers });

describe('judgesConditions', () => {
  const request = (headers: Record<string, string>, method = 'GET', pathname = '/demo/a.jpg') => ({
    method,
    pathname,
    headers: new Headers(headers),
  });
  const revalidating = { accept: chromiumAccept, 'if-none-match': '"x"' };

  it('judges an image revalidation from a client that names AVIF or WebP', () => {
    expect(judgesConditions(request(revalidating), defaultConfig)).toBe(true);
    expect(judgesConditions(request({ ...revalidating, 'sec-fetch-dest': 'image' }), defaultConfig)).toBe(true);
    expect(judgesConditions(request({ ...revalidating, 'sec-fetch-dest': 'empty' }), defaultConfig)).toBe(true);
    const byDate = { accept: 'image/webp', 'if-modified-since': lastModified };
    expect(judgesConditions(request(byDate, 'HEAD'), defaultConfig)).toBe(true);
  });

  it('leaves every other request’s validators to the origin', () => {
    expect(judgesConditions(request({ accept: chromiumAccept }), defaultConfig)).toBe(false);
    expect(judgesConditions(request(revalidating, 'POST'), defaultConfig)).toBe(false);
    // A navigation names image/avif and image/webp too; its revalidation must stay a bodiless 304 from the origin.
    expect(judgesConditions(request({ ...revalidating, 'sec-fetch-dest': 'document' }), defaultConfig)).toBe(false);
    expect(judgesConditions(request({ ...revalidating, 'sec-fetch-dest': 'script' }), defaultConfig)).toBe(false);
    expect(judgesConditions(request({ accept: '*/*', 'if-none-match': '"x"' }), defaultConfig)).toBe(false);
    expect(judgesConditions(request(revalidating), { ...defaultConfig, routes: ['/images/'] })).toBe(false);
    const avifOnly = { accept: 'image/avif', 'if-none-match': '"x"' };
    expect(judgesConditions(request(avifOnly), { ...defaultConfig, formats: ['webp'] })).toBe(false);
  });
});

describe('a browser holding the original gets the variant when it revalidates', () => {
  beforeEach(clearVariants);

  it('answers If-None-Match with the original’s ETag by the variant, and the variant’s own ETag with 304', async () => {
    const seen: (string | null)[][] = [];
    const first = await callImages(photo, get({ accept: 'image/webp', 'if-none-match': originEtag }), {}, origin(seen));
    expect(first.response.status).toBe(200);
    expect(first.header?.format).toBe('webp');
    // The origin was asked without the validator, so it sent the body the Worker converted.
    expect(seen[0]).toEqual([null, null]);
    const variantEtag = first.response.headers.get('etag') ?? '';
    expect(variantEtag).not.toBe(originEtag);
    const again = await callImages(photo, get({ accept: 'image/webp', 'if-none-match': variantEtag }), {}, origin());
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(variantEtag);
    expect(again.response.headers.get('vary')).toContain('Accept');
  });

  it('never lets a date saved with the original stand for the variant', async () => {
    const { response, header } = await callImages(
      photo,
      get({ accept: 'image/webp', 'if-modified-since': lastModified }),
      {},
      origin(),
    );
    expect(response.status).toBe(200);
    expect(header?.format).toBe('webp');
  });

  it('answers 304 itself when it serves the original the client already has', async () => {
    const seen: (string | null)[][] = [];
    // Over the input cap: the original is served, so the original's ETag is the right answer.
    const vars = { IMAGES_MAX_INPUT_BYTES: '100' };
    const byTag = await callImages(
      photo,
      get({ accept: chromiumAccept, 'if-none-match': originEtag }),
      vars,
      origin(seen),
    );
    expect(byTag.response.status).toBe(304);
    expect(byTag.response.headers.get('etag')).toBe(originEtag);
    expect(byTag.response.headers.get('vary')).toContain('Accept');
    expect(seen[0]).toEqual([null, null]);
    const byDate = await callImages(
      photo,
      get({ accept: chromiumAccept, 'if-modified-since': lastModified }),
      vars,
      origin(),
    );
    expect(byDate.response.status).toBe(304);
  });

  it('passes the validators on for clients it would not convert for, and for navigations', async () => {
    const seen: (string | null)[][] = [];
    const plain = await callImages(photo, get({ accept: '*/*', 'if-none-match': originEtag }), {}, origin(seen));
    expect(plain.response.status).toBe(304);
    const navigation = { accept: chromiumAccept, 'if-none-match': originEtag, 'sec-fetch-dest': 'document' };
    expect((await callImages(photo, get(navigation), {}, origin(seen))).response.status).toBe(304);
    expect(seen).toEqual([
      [originEtag, null],
      [originEtag, null],
    ]);
  });

  it('upgrades a photo Chromium cached as the original from the static assets', async () => {
    const original = await callImages(photo, get({ accept: 'image/jpeg' }));
    const etag = original.response.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const revalidated = await callImages(photo, get({ accept: chromiumAccept, 'if-none-match': etag }));
    expect(revalidated.response.status).toBe(200);
    expect(['webp', 'avif']).toContain(revalidated.header?.format);
  });
});
