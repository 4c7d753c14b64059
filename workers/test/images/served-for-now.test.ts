import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/images/core/config';
import { revalidateBeforeUse } from '../../src/images/edge/responses';
import { transformGate } from '../../src/images/edge/transform-gate';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

// An original served only because its variant is not ready (every transform slot busy, or AVIF still encoding in the
// background) used to carry the origin's freshness: with `max-age=31536000, immutable` Chromium kept the JPEG for a
// year and never asked again. On a cold 42-image page in Chromium 23 images came back "busy", and all 23 came from
// the browser's cache as the originals on the next visit. Such an original must be revalidated before each use.

const longLived = 'public, max-age=31536000, immutable';
const expires = 'Thu, 31 Dec 2037 23:55:55 GMT';

/** An origin serving `bytes` as a JPEG with long-lived caching headers. */
const origin = (bytes: Uint8Array) => async () =>
  new Response(bytes, {
    headers: { 'content-type': 'image/jpeg', etag: '"photo-v1"', 'cache-control': longLived, expires },
  });

describe('an original served for now', () => {
  beforeEach(clearVariants);

  it('while AVIF is encoded in the background: revalidated before use, then the stored AVIF keeps the origin’s caching', async () => {
    const serve = async () =>
      callImages(
        '/photos/chelsea.jpg',
        { headers: { accept: chromiumAccept } },
        { IMAGES_FORMATS: 'avif' },
        origin(await assetBytes('chelsea.jpg')),
      );
    const first = await serve();
    expect(first.note).toBe('original; variant pending: AVIF encoding in the background');
    expect(first.response.headers.get('cache-control')).toBe('public, no-cache');
    expect(first.response.headers.get('expires')).toBeNull();
    expect(first.response.headers.get('etag')).toBe('"photo-v1"');
    const second = await serve();
    expect(second.response.headers.get('content-type')).toBe('image/avif');
    expect(second.response.headers.get('cache-control')).toBe(longLived);
    expect(second.response.headers.get('expires')).toBe(expires);
  }, 60_000);

  it('while every transform slot is taken', async () => {
    const limits = {
      maxConcurrent: defaultConfig.maxConcurrentTransforms,
      maxQueued: defaultConfig.maxQueuedTransforms,
    };
    const release = await transformGate(limits).acquire(0);
    try {
      const { note, response } = await callImages(
        '/photos/chelsea.jpg',
        { headers: { accept: 'image/webp' } },
        { IMAGES_QUEUE_WAIT_MS: '20' },
        origin(await assetBytes('chelsea.jpg')),
      );
      expect(note).toContain('original; busy');
      expect(response.headers.get('cache-control')).toBe('public, no-cache');
      expect(response.headers.get('expires')).toBeNull();
    } finally {
      release?.();
    }
  });

  it('but an original that stays the answer keeps the origin’s caching', async () => {
    // Re-encoded at q85 a q5 JPEG comes out larger: the original is the answer for good.
    const { note, response } = await callImages(
      '/photos/coffee-q5.jpg',
      { headers: { accept: 'image/webp' } },
      {},
      origin(await assetBytes('small/coffee-q5.jpg')),
    );
    expect(note).toBe('original; variant not smaller or kept lossless');
    expect(response.headers.get('cache-control')).toBe(longLived);
    expect(response.headers.get('expires')).toBe(expires);
  });
});

describe('revalidateBeforeUse', () => {
  it.each([
    [null, 'no-cache'],
    ['public, max-age=31536000, immutable', 'public, no-cache'],
    ['max-age=600, stale-while-revalidate=60, stale-if-error=86400', 'no-cache'],
    ['private, max-age=60', 'private, no-cache'],
    ['s-maxage=600, public', 'public, no-cache'],
    ['no-cache="set-cookie", max-age=60', 'no-cache'],
    ['no-store', 'no-store, no-cache'],
    ['Public, Max-Age=60', 'Public, no-cache'],
  ])('%s → %s', (cacheControl, expected) => {
    const headers = new Headers(cacheControl === null ? {} : { 'cache-control': cacheControl });
    headers.set('expires', expires);
    revalidateBeforeUse(headers);
    expect(headers.get('cache-control')).toBe(expected);
    expect(headers.has('expires')).toBe(false);
  });
});
