import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig, readConfig } from '../../src/images/core/config';
import { losslessWins, repeatShare } from '../../src/images/core/lossless';
import type { Pixels } from '../../src/images/core/pixels';
import { decode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { webpChunks } from '../../src/shared/image-header/chunks';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

const accept = (value: string) => ({ headers: { accept: value } });

/** The WebP image chunk's type: `VP8L` for lossless, `VP8 ` for lossy. */
function webpCoding(bytes: Uint8Array): string {
  let coding = '';
  webpChunks(bytes, (chunk) => {
    if (chunk.type === 'VP8L' || chunk.type === 'VP8 ') coding = chunk.type;
    return coding ? 'stop' : 'continue';
  });
  return coding;
}

async function pixelsOf(bytes: Uint8Array, format: 'png' | 'webp' | 'avif'): Promise<Pixels> {
  await ensureCodecs();
  return decode(bytes, format, 1);
}

const solid = (width: number, height: number, rgba: number[]): Pixels => ({
  width,
  height,
  data: Uint8ClampedArray.from({ length: width * height * 4 }, (_, index) => rgba[index % 4] ?? 0),
});

describe('repeatShare and losslessWins', () => {
  it('counts pixels equal to their left or upper neighbour', () => {
    expect(repeatShare(solid(4, 4, [10, 20, 30, 255]))).toBe(15 / 16);
    // A vertical stripe pattern: every pixel after the first row repeats the one above.
    const stripes = solid(4, 3, [0, 0, 0, 255]);
    for (let index = 0; index < 12; index += 1) stripes.data[index * 4] = index % 4;
    expect(repeatShare(stripes)).toBe(8 / 12);
    // Noise: nothing repeats.
    const noise = solid(3, 3, [0, 0, 0, 255]);
    for (let index = 0; index < 9; index += 1) noise.data[index * 4] = index * 25;
    expect(repeatShare(noise)).toBe(0);
    expect(repeatShare({ width: 0, height: 0, data: new Uint8ClampedArray(0) })).toBe(0);
  });

  it('reads pixels whose view does not start on a 4-byte boundary', () => {
    const buffer = new Uint8ClampedArray(1 + 2 * 2 * 4).fill(7);
    expect(repeatShare({ width: 2, height: 2, data: buffer.subarray(1) })).toBe(3 / 4);
  });

  it('lets lossless cost up to a quarter more than lossy', () => {
    expect(losslessWins(125, 100)).toBe(true);
    expect(losslessWins(126, 100)).toBe(false);
  });

  it('reads IMAGES_LOSSLESS, keeping auto for anything but off', () => {
    expect(defaultConfig.lossless).toBe('auto');
    expect(readConfig({ IMAGES_LOSSLESS: 'off' }).lossless).toBe('off');
    expect(readConfig({ IMAGES_LOSSLESS: 'maybe' }).lossless).toBe('auto');
  });
});

describe('negotiated graphics keep exact pixels when lossless pays', () => {
  beforeEach(clearVariants);
  const text = '/demo/images/graphics/text.png';

  it('serves a page of text as lossless WebP, pixel for pixel, and never as lossy AVIF', async () => {
    const source = await assetBytes('graphics/text.png');
    const first = await callImages(text, accept(chromiumAccept));
    expect(first.note).toBe('webp; encoded lossless');
    expect(webpCoding(first.bytes)).toBe('VP8L');
    expect(first.bytes.byteLength).toBeLessThan(source.byteLength / 3);
    const [original, variant] = [await pixelsOf(source, 'png'), await pixelsOf(first.bytes, 'webp')];
    expect(variant.data).toEqual(original.data);
    // The background AVIF gave way to the lossless WebP (lossy AVIF cost more than it), so WebP stays the answer.
    const second = await callImages(text, accept(chromiumAccept));
    expect(second.note).toBe('webp; stored lossless');
    expect(webpCoding(second.bytes)).toBe('VP8L');
  });

  it('gives way to lossless WebP in sync AVIF mode too, in one request', async () => {
    const sync = { IMAGES_AVIF_MODE: 'sync' };
    const first = await callImages(text, accept(chromiumAccept), sync);
    expect(first.note).toBe('webp; encoded lossless');
    expect(webpCoding(first.bytes)).toBe('VP8L');
    expect((await callImages(text, accept(chromiumAccept), sync)).note).toBe('webp; stored lossless');
  });

  it('keeps a chart lossless for WebP and lets a much smaller lossy AVIF through', async () => {
    const chart = '/demo/images/graphics/chart.png';
    const first = await callImages(chart, accept(chromiumAccept));
    expect(first.note).toBe('webp; encoded lossless');
    const second = await callImages(chart, accept(chromiumAccept));
    // Lossless WebP is more than 1.25x the lossy AVIF here, so a browser that takes AVIF gets it.
    expect(second.note).toBe('avif; stored');
    expect(second.bytes.byteLength * 1.25).toBeLessThan(first.bytes.byteLength);
  });

  it('serves a page built around a photo lossy: lossless would cost several times the bytes', async () => {
    const { note, bytes } = await callImages('/demo/images/graphics/shop.png', accept('image/webp'));
    expect(note).toBe('webp; encoded');
    expect(webpCoding(bytes)).toBe('VP8 ');
  });

  it('never tries a photo saved as PNG lossless', async () => {
    const { note, bytes } = await callImages('/demo/images/small/chelsea.png', accept('image/webp'));
    expect(note).toBe('webp; encoded');
    expect(webpCoding(bytes)).toBe('VP8 ');
  });

  it('encodes lossy as before with IMAGES_LOSSLESS=off', async () => {
    const { note, bytes } = await callImages(text, accept('image/webp'), { IMAGES_LOSSLESS: 'off' });
    expect(note).toBe('webp; encoded');
    expect(webpCoding(bytes)).toBe('VP8 ');
  });

  it('keeps a stored lossy variant of another rule out: the lossless rule has its own keys', async () => {
    const off = await callImages(text, accept('image/webp'), { IMAGES_LOSSLESS: 'off' });
    const auto = await callImages(text, accept('image/webp'));
    expect(off.response.headers.get('etag')).not.toBe(auto.response.headers.get('etag'));
    expect(auto.note).toBe('webp; encoded lossless');
  });

  it('serves lossy when the lossless encode would pass the work budget', async () => {
    // 0.24 MP: decode 70 + lossy WebP 138 ms fit in 400; with a lossless encode on top (484 ms) they do not.
    const { note, bytes } = await callImages(text, accept('image/webp'), { IMAGES_MAX_WORK_MS: '400' });
    expect(note).toBe('webp; encoded');
    expect(webpCoding(bytes)).toBe('VP8 ');
  });

  it('serves a lossless WebP graphic as it is rather than as lossy AVIF', async () => {
    const path = '/demo/images/graphics/text-lossless.webp';
    const sync = { IMAGES_AVIF_MODE: 'sync' };
    const { note, bytes } = await callImages(path, accept(chromiumAccept), sync);
    expect(bytes).toEqual(await assetBytes('graphics/text-lossless.webp'));
    expect(note).toContain('kept lossless');
  });

  it('converts a photo stored as lossless WebP to AVIF as before', async () => {
    const sync = { IMAGES_AVIF_MODE: 'sync' };
    const { note } = await callImages('/demo/images/small/chelsea-lossless.webp', accept(chromiumAccept), sync);
    expect(note).toBe('avif; encoded');
  });
});
