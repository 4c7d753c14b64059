import { beforeEach, describe, expect, it } from 'vitest';
import { orientPixels, type Pixels } from '../../src/images/core/pixels';
import { decode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { type Orientation, readOrientation, tiffOrientation } from '../../src/shared/image-header/orientation';
import { withExif } from './exif-segment';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

/** A TIFF structure with one directory holding `entries` (tag, type, count, value) in `order`. */
function tiff(order: 'II' | 'MM', entries: readonly (readonly [number, number, number, number])[]): Uint8Array {
  const bytes = new Uint8Array(8 + 2 + entries.length * 12 + 4);
  const view = new DataView(bytes.buffer);
  const little = order === 'II';
  bytes.set([order.charCodeAt(0), order.charCodeAt(1)], 0);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  view.setUint16(8, entries.length, little);
  entries.forEach(([tag, type, count, value], index) => {
    const at = 10 + index * 12;
    view.setUint16(at, tag, little);
    view.setUint16(at + 2, type, little);
    view.setUint32(at + 4, count, little);
    view.setUint16(at + 8, value, little);
  });
  return bytes;
}
const orientationEntry = (value: number) => [0x0112, 3, 1, value] as const;

describe('readOrientation', () => {
  it.each([
    ['chelsea-orientation-3.jpg', 3],
    ['chelsea-orientation-6.jpg', 6],
    ['chelsea-orientation-8.jpg', 8],
    ['chelsea-exif.jpg', 1],
    ['chelsea.jpg', 1],
    ['chelsea.png', 1],
  ])('reads sharp’s %s as %i', async (name, value) => {
    const bytes = await assetBytes(`small/${name}`);
    expect(readOrientation(bytes, name.endsWith('.png') ? 'png' : 'jpeg')).toEqual({ ok: true, value });
  });

  it.each([
    ['png', 'PNG with EXIF orientation 6'],
    ['webp', 'WebP with EXIF orientation 6'],
    ['avif', 'AVIF irot transform'],
  ] as const)('treats a turned %s as a doubt (browsers and codecs differ)', async (format, reason) => {
    expect(readOrientation(await assetBytes(`small/chelsea-orientation-6.${format}`), format)).toEqual({
      ok: false,
      reason,
    });
  });

  it('reads both byte orders, and 1 when the directory has no orientation', () => {
    for (const order of ['II', 'MM'] as const) {
      expect(tiffOrientation(tiff(order, [[0x010f, 2, 1, 0], orientationEntry(5)]))).toEqual({ ok: true, value: 5 });
      expect(tiffOrientation(tiff(order, [[0x010f, 2, 1, 0]]))).toEqual({ ok: true, value: 1 });
    }
  });

  it('doubts values outside 1–8, a wrong type, a cut directory and disagreeing segments', async () => {
    expect(tiffOrientation(tiff('MM', [orientationEntry(9)])).ok).toBe(false);
    expect(tiffOrientation(tiff('MM', [orientationEntry(0)])).ok).toBe(false);
    expect(tiffOrientation(tiff('MM', [[0x0112, 4, 1, 6]])).ok).toBe(false);
    expect(tiffOrientation(tiff('MM', [orientationEntry(6)]).subarray(0, 16)).ok).toBe(false);
    expect(tiffOrientation(new TextEncoder().encode('XX*\0\0\0\0\x08')).ok).toBe(false);
    const jpeg = await assetBytes('small/chelsea.jpg');
    const twice = withExif(withExif(jpeg, tiff('II', [orientationEntry(6)])), tiff('MM', [orientationEntry(8)]));
    expect(readOrientation(twice, 'jpeg')).toEqual({
      ok: false,
      reason: 'two EXIF segments with different orientations',
    });
    const agreeing = withExif(withExif(jpeg, tiff('II', [orientationEntry(6)])), tiff('MM', [orientationEntry(6)]));
    expect(readOrientation(agreeing, 'jpeg')).toEqual({ ok: true, value: 6 });
  });

  it('reads a large PNG whose image data comes in more chunks than the structure limit', async () => {
    // libpng writes 8 KB IDAT chunks: a 9 MB PNG photo has over a thousand of them.
    const png = await assetBytes('small/coffee.png');
    const idat = new Uint8Array([0, 0, 0, 0, ...[...'IDAT'].map((c) => c.charCodeAt(0)), 0, 0, 0, 0]);
    const many = new Uint8Array(33 + 1100 * idat.length + 12);
    many.set(png.subarray(0, 33));
    for (let i = 0; i < 1100; i++) many.set(idat, 33 + i * idat.length);
    many.set(png.subarray(png.length - 12), 33 + 1100 * idat.length);
    expect(readOrientation(many, 'png')).toEqual({ ok: true, value: 1 });
  });

  it('never throws on any prefix or any single-byte change of an EXIF segment', async () => {
    const turned = await assetBytes('small/chelsea-orientation-6.jpg');
    for (let length = 0; length < 256; length++) readOrientation(turned.subarray(0, length), 'jpeg');
    for (let at = 2; at < 200; at++) {
      for (const value of [0x00, 0x01, 0x7f, 0xff]) {
        const changed = turned.slice();
        changed[at] = value;
        const read = readOrientation(changed, 'jpeg');
        expect(read.ok ? read.value >= 1 && read.value <= 8 : read.reason.length > 0).toBe(true);
      }
    }
  });
});

describe('orientPixels', () => {
  // A 3×2 stored image whose pixels are numbered 1–6 (one 32-bit word each), row by row.
  const stored: Pixels = {
    data: new Uint8ClampedArray(new Uint32Array([1, 2, 3, 4, 5, 6]).buffer),
    width: 3,
    height: 2,
  };
  const shown = (orientation: Orientation) => {
    const out = orientPixels(stored, orientation);
    const words = [...new Uint32Array(out.data.buffer, out.data.byteOffset, out.width * out.height)];
    return {
      width: out.width,
      height: out.height,
      rows: [0, 1, 2].map((y) => words.slice(y * out.width, (y + 1) * out.width)).filter((row) => row.length),
    };
  };

  // TIFF 6.0, Orientation: where the stored 0th row and 0th column are shown.
  it.each([
    [
      1,
      [
        [1, 2, 3],
        [4, 5, 6],
      ],
    ], // 0th row top, 0th column left
    [
      2,
      [
        [3, 2, 1],
        [6, 5, 4],
      ],
    ], // top, right
    [
      3,
      [
        [6, 5, 4],
        [3, 2, 1],
      ],
    ], // bottom, right
    [
      4,
      [
        [4, 5, 6],
        [1, 2, 3],
      ],
    ], // bottom, left
    [
      5,
      [
        [1, 4],
        [2, 5],
        [3, 6],
      ],
    ], // left, top
    [
      6,
      [
        [4, 1],
        [5, 2],
        [6, 3],
      ],
    ], // right, top
    [
      7,
      [
        [6, 3],
        [5, 2],
        [4, 1],
      ],
    ], // right, bottom
    [
      8,
      [
        [3, 6],
        [2, 5],
        [1, 4],
      ],
    ], // left, bottom
  ] as const)('orientation %i shows the stored rows as the table says', (orientation, rows) => {
    const out = shown(orientation);
    expect(out.rows).toEqual(rows);
    expect([out.width, out.height]).toEqual(orientation >= 5 ? [2, 3] : [3, 2]);
  });

  it('reads a view at an unaligned offset', () => {
    const bytes = new Uint8ClampedArray(1 + 24);
    bytes.set(stored.data, 1);
    const out = orientPixels({ data: bytes.subarray(1), width: 3, height: 2 }, 6);
    expect([...new Uint32Array(out.data.buffer)]).toEqual([4, 1, 5, 2, 6, 3]);
  });
});

describe('a turned JPEG through the Worker', () => {
  beforeEach(clearVariants);
  const sync = { IMAGES_AVIF_MODE: 'sync' };

  /** Mean absolute difference per channel between two decodes of the same size. */
  const difference = (a: Pixels, b: Pixels) => {
    let sum = 0;
    for (let i = 0; i < a.data.length; i++) sum += Math.abs((a.data[i] as number) - (b.data[i] as number));
    return sum / a.data.length;
  };

  it.each([3, 6, 8] as const)(
    'negotiates orientation %i to pixels shown as the browser shows the JPEG',
    async (orientation) => {
      const name = `small/chelsea-orientation-${orientation}.jpg`;
      const { response, bytes, header } = await callImages(
        `/demo/images/${name}`,
        { headers: { accept: chromiumAccept } },
        sync,
      );
      expect(response.headers.get('content-type')).toBe('image/avif');
      expect(header).toMatchObject(orientation === 3 ? { width: 96, height: 64 } : { width: 64, height: 96 });
      await ensureCodecs();
      const out = await decode(bytes, 'avif', 0);
      const original = await decode(await assetBytes(name), 'jpeg', 0);
      // Against the stored pixels turned as EXIF says, and turned the other way: the variant is the first.
      const right = difference(out, orientPixels(original, orientation));
      const wrong = difference(out, orientPixels(original, orientation === 6 ? 8 : orientation === 8 ? 6 : 1));
      expect(right).toBeLessThan(6);
      expect(wrong).toBeGreaterThan(3 * right);
      expect(response.headers.get('x-speedkit-image')).toBe('avif; encoded');
    },
  );

  it('resizes by the shown size in the URL API and describes it in format=json', async () => {
    const api = (options: string) =>
      callImages(`/cdn-cgi/image/${options}/demo/images/small/chelsea-orientation-6.jpg`, {}, sync);
    const resized = await api('width=32,format=webp');
    expect(resized.header).toMatchObject({ format: 'webp', width: 32, height: 48 });
    const described = JSON.parse(new TextDecoder().decode((await api('width=32,format=json')).bytes));
    expect(described).toMatchObject({ width: 64, height: 96, output: { width: 32, height: 48 } });
  });

  it('serves a turned PNG as it is', async () => {
    const { bytes, response } = await callImages(
      '/demo/images/small/chelsea-orientation-6.png',
      { headers: { accept: chromiumAccept } },
      sync,
    );
    expect(bytes).toEqual(await assetBytes('small/chelsea-orientation-6.png'));
    expect(response.headers.get('x-speedkit-image')).toContain('PNG with EXIF orientation 6');
  });
});
