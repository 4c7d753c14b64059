// A source whose decode fails fails on every request: the isolate remembers the failure for a while and serves the
// original without decoding again (recent-failures.ts), against the real middleware, codecs and R2.
import { beforeEach, describe, expect, it } from 'vitest';
import { maxReasonChars, RecentFailures } from '../../src/images/edge/recent-failures';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';
import { pngChunk } from './png-fixture';

beforeEach(clearVariants);

/**
 * A 256x256 RGBA PNG whose header, chunk lengths and CRCs are all valid but whose IDAT is not a zlib stream: every
 * check before the decode passes, and the decoder fails.
 */
function undecodablePng(): Uint8Array {
  const header = [0, 0, 1, 0, 0, 0, 1, 0, 8, 6, 0, 0, 0];
  const noise = Uint8Array.from({ length: 4096 }, (_, index) => (index * 97 + 13) & 0xff);
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...pngChunk('IHDR', header),
    ...pngChunk('IDAT', noise),
    ...pngChunk('IEND', []),
  ]);
}

const pngOrigin = (bytes: Uint8Array) => async () =>
  new Response(bytes, { headers: { 'content-type': 'image/png', etag: '"broken-1"' } });

describe('a source whose transform fails', () => {
  it('is negotiated once: later requests get the original without another decode, saying why', async () => {
    const png = undecodablePng();
    const first = await callImages('/uploads/broken.png', { headers: { accept: chromiumAccept } }, {}, pngOrigin(png));
    expect(first.bytes).toEqual(png);
    expect(first.note).toContain('transform failed');
    const second = await callImages('/uploads/broken.png', { headers: { accept: chromiumAccept } }, {}, pngOrigin(png));
    expect(second.bytes).toEqual(png);
    expect(second.response.headers.get('content-type')).toBe('image/png');
    expect(second.note).toContain('transform failed in the last 10 min');
    expect(second.note).toContain('not tried again yet');
  });

  it('leaves other sources alone', async () => {
    const png = undecodablePng();
    await callImages('/uploads/broken.png', { headers: { accept: 'image/webp' } }, {}, pngOrigin(png));
    const good = await assetBytes('small/chelsea.png');
    const other = await callImages(
      '/uploads/good.png',
      { headers: { accept: 'image/webp' } },
      {},
      async () => new Response(good, { headers: { 'content-type': 'image/png', etag: '"good-1"' } }),
    );
    expect(other.response.headers.get('content-type')).toBe('image/webp');
  });

  it('through the URL API: the same variant is not encoded again, the original is served both times', async () => {
    const png = undecodablePng();
    const path = '/cdn-cgi/image/width=64,format=webp/uploads/broken.png';
    const first = await callImages(path, {}, {}, pngOrigin(png));
    expect(first.bytes).toEqual(png);
    expect(first.note).toContain('transform failed');
    const second = await callImages(path, {}, {}, pngOrigin(png));
    expect(second.bytes).toEqual(png);
    expect(second.note).toContain('not tried again yet');
    // Another variant of the same source is its own attempt (its failure could be the encoder's).
    const other = await callImages('/cdn-cgi/image/width=32,format=webp/uploads/broken.png', {}, {}, pngOrigin(png));
    expect(other.note).toContain('transform failed:');
  });
});

describe('RecentFailures', () => {
  it('remembers a failure for its retry time, then forgets it', () => {
    const failures = new RecentFailures(1000, 10);
    failures.remember('a', 'bad zlib', 5000);
    expect(failures.recent('a', 5999)).toBe('bad zlib');
    expect(failures.recent('a', 6000)).toBeNull();
    // Forgotten once expired, and a new failure starts its own time.
    expect(failures.recent('a', 5500)).toBeNull();
    failures.remember('a', 'bad zlib again', 7000);
    expect(failures.recent('a', 7999)).toBe('bad zlib again');
    expect(failures.recent('a', 8000)).toBeNull();
  });

  it('keeps the first maxReasonChars of a reason (a decoder message may quote its input)', () => {
    const failures = new RecentFailures(60_000, 2);
    failures.remember('a', 'x'.repeat(5000), 0);
    expect(failures.recent('a', 1)).toBe('x'.repeat(maxReasonChars));
  });

  it('keeps at most maxKeys, dropping the oldest failure first', () => {
    const failures = new RecentFailures(60_000, 2);
    failures.remember('a', 'one', 0);
    failures.remember('b', 'two', 1);
    failures.remember('c', 'three', 2);
    expect(failures.recent('a', 3)).toBeNull();
    expect(failures.recent('b', 3)).toBe('two');
    expect(failures.recent('c', 3)).toBe('three');
  });
});
