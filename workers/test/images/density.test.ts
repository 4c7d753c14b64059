import { beforeEach, describe, expect, it } from 'vitest';
import { jpegDensityCorrectedSize } from '../../src/shared/image-header/density';
import { withExif } from './exif-segment';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

// A JPEG whose EXIF says "144 dpi, 48×32" over 96×64 pixels is laid out by Chromium at 48×32 (naturalWidth 48); a
// re-encode drops the EXIF and the same <img> grew to 96×64 on the page. Such files are served as they are.

interface DensityExif {
  readonly order?: 'II' | 'MM';
  /** [numerator, denominator] */
  readonly resolution?: readonly [number, number];
  /** ResolutionUnit; absent when undefined. */
  readonly unit?: number | undefined;
  readonly size: readonly [number, number];
  /** PixelX/YDimension as SHORT (3) or LONG (4). */
  readonly sizeType?: 3 | 4;
}

/** A TIFF: IFD0 with XResolution, YResolution, ResolutionUnit and the Exif IFD pointer; that IFD with the size. */
function densityTiff(exif: DensityExif): Uint8Array {
  const { order = 'II', resolution = [144, 1], size, sizeType = 4 } = exif;
  // An explicit `unit: undefined` leaves the entry out (a default would put inches back).
  const unit = 'unit' in exif ? exif.unit : 2;
  const little = order === 'II';
  const ifd0 = [
    [0x011a, 5, 1, 0],
    [0x011b, 5, 1, 0],
    ...(unit === undefined ? [] : [[0x0128, 3, 1, unit]]),
    [0x8769, 4, 1, 0],
  ];
  const ifd0End = 8 + 2 + ifd0.length * 12 + 4;
  const xAt = ifd0End;
  const yAt = ifd0End + 8;
  const exifAt = ifd0End + 16;
  const bytes = new Uint8Array(exifAt + 2 + 2 * 12 + 4);
  const view = new DataView(bytes.buffer);
  bytes.set([order.charCodeAt(0), order.charCodeAt(1)], 0);
  view.setUint16(2, 42, little);
  view.setUint32(4, 8, little);
  const entries = (at: number, list: readonly (readonly number[])[]) => {
    view.setUint16(at, list.length, little);
    list.forEach(([tag = 0, type = 0, count = 0, value = 0], index) => {
      const entry = at + 2 + index * 12;
      view.setUint16(entry, tag, little);
      view.setUint16(entry + 2, type, little);
      view.setUint32(entry + 4, count, little);
      if (type === 3) view.setUint16(entry + 8, value, little);
      else view.setUint32(entry + 8, value, little);
    });
  };
  const offsets = new Map([
    [0x011a, xAt],
    [0x011b, yAt],
    [0x8769, exifAt],
  ]);
  entries(
    8,
    ifd0.map(([tag = 0, type, count, value]) => [tag, type, count, offsets.get(tag) ?? value] as number[]),
  );
  for (const at of [xAt, yAt]) {
    view.setUint32(at, resolution[0], little);
    view.setUint32(at + 4, resolution[1], little);
  }
  entries(exifAt, [
    [0xa002, sizeType, 1, size[0]],
    [0xa003, sizeType, 1, size[1]],
  ]);
  return bytes;
}

const stored = { width: 96, height: 64 };
const photo = () => assetBytes('small/coffee.jpg');

describe('jpegDensityCorrectedSize', () => {
  it.each<[string, DensityExif, { width: number; height: number } | null]>([
    ['144 dpi, half the size', { size: [48, 32] }, { width: 48, height: 32 }],
    ['big-endian', { order: 'MM', size: [48, 32] }, { width: 48, height: 32 }],
    ['SHORT sizes', { size: [48, 32], sizeType: 3 }, { width: 48, height: 32 }],
    ['36 dpi, twice the size', { resolution: [36, 1], size: [192, 128] }, { width: 192, height: 128 }],
    // Chromium rounds: 96 × 72 / 143.5 = 48.2, 64 × 72 / 143.5 = 32.1.
    ['143.5 dpi as 1435/10', { resolution: [1435, 10], size: [48, 32] }, { width: 48, height: 32 }],
    ['the pixel size itself', { resolution: [300, 1], size: [96, 64] }, null],
    ['72 dpi with a stale size', { resolution: [72, 1], size: [48, 32] }, null],
    ['300 dpi with a stale size (a cropped print export)', { resolution: [300, 1], size: [4000, 3000] }, null],
    ['centimetres', { unit: 3, size: [48, 32] }, null],
    ['no unit (Chromium does not assume inches)', { unit: undefined, size: [48, 32] }, null],
    ['a zero denominator', { resolution: [144, 0], size: [48, 32] }, null],
  ])('%s', async (_name, exif, expected) => {
    expect(jpegDensityCorrectedSize(withExif(await photo(), densityTiff(exif)), stored)).toEqual(expected);
  });

  it('reads nothing from a JPEG without EXIF, or with sharp’s ordinary EXIF', async () => {
    expect(jpegDensityCorrectedSize(await photo(), stored)).toBeNull();
    expect(jpegDensityCorrectedSize(await assetBytes('small/chelsea-exif.jpg'), stored)).toBeNull();
  });

  it('never throws on any prefix or any single-byte change of the segment', async () => {
    const jpeg = withExif(await photo(), densityTiff({ size: [48, 32] }));
    for (let length = 0; length < 120; length++) jpegDensityCorrectedSize(jpeg.subarray(0, length), stored);
    for (let at = 2; at < 110; at++) {
      for (const value of [0x00, 0x01, 0x7f, 0xff]) {
        const changed = jpeg.slice();
        changed[at] = value;
        expect(() => jpegDensityCorrectedSize(changed, stored)).not.toThrow();
      }
    }
  });
});

describe('a JPEG laid out by its EXIF density, through the Worker', () => {
  beforeEach(clearVariants);

  const serve = async (bytes: Uint8Array) =>
    callImages('/photos/hidpi.jpg', { headers: { accept: chromiumAccept } }, { IMAGES_AVIF_MODE: 'sync' }, async () => {
      return new Response(bytes, { headers: { 'content-type': 'image/jpeg', etag: '"v1"' } });
    });

  it('is served as it is, so the page lays it out at the same size', async () => {
    const hidpi = withExif(await photo(), densityTiff({ size: [48, 32] }));
    const { response, bytes, note } = await serve(hidpi);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(bytes).toEqual(hidpi);
    expect(note).toBe('original; EXIF density: shown at 48x32, not its 96x64 pixels');
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it('while the same photo with an ordinary 300 dpi EXIF is converted', async () => {
    const print = withExif(await photo(), densityTiff({ resolution: [300, 1], size: [96, 64] }));
    const { response } = await serve(print);
    expect(response.headers.get('content-type')).toBe('image/avif');
  });
});
