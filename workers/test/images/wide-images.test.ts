// Sprite sheets and panorama strips: tens of thousands of pixels on one side, few megapixels. WebP holds at most
// 16,383 px per side, so such an image is never tried as WebP (a decode, a failed encode and a fresh encoder on every
// request); AVIF holds it.
import { beforeEach, describe, expect, it } from 'vitest';
import { holdsSize } from '../../src/images/core/formats';
import { instantiations } from '../../src/images/edge/codecs';
import { callImages, clearVariants } from './helpers';
import { rgbaPng } from './png-fixture';

beforeEach(clearVariants);

const stripe = (x: number, y: number) => [(x * 7) % 256, (y * 13) % 256, 90, 255];
/** Noise, which PNG cannot compress: any lossy variant of it is smaller. */
const noise = (x: number, y: number) => [
  (x * 7919 + y * 104729) % 251,
  (x * x + 31 * y) % 253,
  (x ^ (y * 97)) % 255,
  255,
];
const fromOrigin = (bytes: Uint8Array) => async () => new Response(bytes, { headers: { 'content-type': 'image/png' } });

describe('holdsSize', () => {
  it('gives WebP 16,383 px per side and AVIF far more', () => {
    const sizes = [16_383, 16_384].map((width) => holdsSize('webp', { width, height: 1 }));
    expect([...sizes, holdsSize('avif', { width: 40_000, height: 1 })]).toEqual([true, false, true]);
  });
});

describe('a 20,000 × 2 PNG', () => {
  it('is not tried as WebP by negotiation: the original, no encoder started', async () => {
    const png = await rgbaPng(20_000, 2, stripe);
    const before = instantiations.get('webpEncode') ?? 0;
    const { note } = await callImages('/sprite.png', { headers: { accept: 'image/webp,*/*' } }, {}, fromOrigin(png));
    expect([note, (instantiations.get('webpEncode') ?? 0) - before]).toEqual([
      'original; 20000x2: more pixels per side than webp can hold',
      0,
    ]);
  });

  it('becomes AVIF through the URL API with format=auto for a browser with both', async () => {
    const png = await rgbaPng(20_000, 2, noise);
    const { header } = await callImages(
      '/cdn-cgi/image/format=auto/sprite.png',
      { headers: { accept: 'image/avif,image/webp,*/*' } },
      { IMAGES_MAX_OUTPUT_DIMENSION: '20000', IMAGES_FORMATS: 'webp,avif' },
      fromOrigin(png),
    );
    expect(header).toMatchObject({ format: 'avif', width: 20_000, height: 2 });
  });

  it('is a 400 naming the limit for an explicit format=webp', async () => {
    const png = await rgbaPng(20_000, 2, stripe);
    const { response, bytes } = await callImages(
      '/cdn-cgi/image/format=webp/sprite.png',
      {},
      { IMAGES_MAX_OUTPUT_DIMENSION: '20000' },
      fromOrigin(png),
    );
    expect([response.status, JSON.parse(new TextDecoder().decode(bytes)).error]).toEqual([
      400,
      'invalid option format: webp holds at most 16383 px per side; the output would be 20000x2',
    ]);
  });
});
