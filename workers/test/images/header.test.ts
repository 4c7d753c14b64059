import { describe, expect, it } from 'vitest';
import { isComplete } from '../../src/images/core/completeness';
import { readImageHeader } from '../../src/shared/image-header/whole-file';
import { assetBytes } from './helpers';

describe('readImageHeader on the real fixtures', () => {
  it.each([
    ['chelsea.jpg', 'jpeg', 451, 300],
    ['chelsea-progressive.jpg', 'jpeg', 451, 300],
    ['hubble_deep_field.jpg', 'jpeg', 1000, 872],
    ['coffee.png', 'png', 600, 400],
    ['brick.png', 'png', 512, 512],
    ['astronaut.webp', 'webp', 512, 512],
    ['small/chelsea.avif', 'avif', 96, 64],
    ['broken/animated.gif', 'gif', 32, 32],
    ['broken/bomb.png', 'png', 30000, 30000],
  ])('reads %s as %s %ix%i', async (path, format, width, height) => {
    expect(readImageHeader(await assetBytes(path))).toMatchObject({ format, width, height });
  });

  it('finds the JPEG frame header behind an EXIF segment', async () => {
    expect(readImageHeader(await assetBytes('small/chelsea-exif.jpg'))).toMatchObject({ width: 451, height: 300 });
  });

  it('marks an APNG by its acTL chunk before the image data, and not one after it', async () => {
    const png = await assetBytes('small/coffee.png');
    const acTL = new Uint8Array([
      0,
      0,
      0,
      8,
      ...[...'acTL'].map((c) => c.charCodeAt(0)),
      0,
      0,
      0,
      2,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
    const before = new Uint8Array([...png.subarray(0, 33), ...acTL, ...png.subarray(33)]);
    const after = new Uint8Array([...png.subarray(0, png.length - 12), ...acTL, ...png.subarray(png.length - 12)]);
    expect(readImageHeader(before)?.animated).toBe(true);
    expect(readImageHeader(after)?.animated).toBe(false);
  });

  it('marks animated GIFs and leaves stills alone', async () => {
    expect(readImageHeader(await assetBytes('broken/animated.gif'))?.animated).toBe(true);
    expect(readImageHeader(await assetBytes('chelsea.png'))?.animated).toBe(false);
  });

  it('returns null for HTML, empty input and every prefix of a header', async () => {
    expect(readImageHeader(await assetBytes('broken/not-an-image.png'))).toBeNull();
    expect(readImageHeader(new Uint8Array())).toBeNull();
    const png = await assetBytes('small/coffee.png');
    for (let length = 0; length < 24; length += 1) expect(readImageHeader(png.subarray(0, length))).toBeNull();
  });

  it('tells complete files from truncated ones', async () => {
    const jpeg = await assetBytes('small/coffee.jpg');
    expect(isComplete(jpeg, 'jpeg')).toBe(true);
    expect(isComplete(await assetBytes('broken/truncated.jpg'), 'jpeg')).toBe(false);
    const webp = await assetBytes('small/coffee.webp');
    expect(isComplete(webp, 'webp')).toBe(true);
    expect(isComplete(webp.subarray(0, webp.length - 10), 'webp')).toBe(false);
  });
});
