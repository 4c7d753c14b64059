// JPEGs as phones, cameras and old tools write them: what follows the image's EOI, several images in one file,
// restart markers, greyscale, a height left to a DNL marker. Each is converted exactly when the decoder shows what a
// browser shows, and otherwise served as it is.
import { beforeEach, describe, expect, it } from 'vitest';
import { decode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { concatBytes } from '../../src/shared/image-header/bytes';
import { fixtures } from '../priority/fixtures';
import { assetBytes, callImages, clearVariants } from './helpers';

beforeEach(clearVariants);

const fixture = (name: string) => fixtures.find((f) => f.name === name)?.bytes ?? new Uint8Array();
const webpOnly = { headers: { accept: 'image/webp,*/*' } };
const negotiate = (bytes: Uint8Array) =>
  callImages(
    '/photo.jpg',
    webpOnly,
    {},
    async () => new Response(bytes, { headers: { 'content-type': 'image/jpeg' } }),
  );

/** Mean difference per channel between two decodes of the same size. */
const meanDifference = (a: Uint8ClampedArray, b: Uint8ClampedArray) =>
  a.reduce((sum, value, i) => sum + Math.abs(value - (b[i] as number)), 0) / a.length;

describe('bytes after the EOI', () => {
  it.each([
    ['a trailer of padding', new Uint8Array(200).fill(0x20)],
    [
      'a motion photo’s video',
      concatBytes([new Uint8Array([0, 0, 0, 24]), new TextEncoder().encode('ftypmp42'), new Uint8Array(4000)]),
    ],
  ])('are left behind with %s: the image itself is converted', async (_name, trailer) => {
    const jpeg = await assetBytes('small/chelsea.jpg');
    const { header, bytes, note } = await negotiate(concatBytes([jpeg, trailer]));
    expect(note).toBe('webp; encoded');
    await ensureCodecs();
    const [variant, source] = [await decode(bytes, 'webp', 0), await decode(jpeg, 'jpeg', 0)];
    expect([header?.width, meanDifference(variant.data, source.data) < 6]).toEqual([96, true]);
  });

  it('a second image (MPO) does not count: the first is converted', async () => {
    const first = await assetBytes('small/chelsea.jpg');
    const { header, note } = await negotiate(concatBytes([first, await assetBytes('small/coffee.jpg')]));
    expect([note, header?.width, header?.height]).toEqual(['webp; encoded', 96, 64]);
  });

  it('a file cut inside its scan is still truncated, whatever its last bytes', async () => {
    const jpeg = await assetBytes('small/chelsea.jpg');
    const { note } = await negotiate(jpeg.subarray(0, Math.floor(jpeg.length * 0.7)));
    expect(note).toBe('original; truncated');
  });
});

describe('frames the codec decodes as browsers do', () => {
  it.each([
    ['restart markers (cjpeg -restart 1)', 'chelsea--cjpeg-baseline-restart.jpg'],
    ['restart markers in a progressive file', 'chelsea--cjpeg-progressive-restart.jpg'],
  ])('converts a JPEG with %s', async (_name, file) => {
    const { note } = await negotiate(fixture(file));
    expect(note).toBe('webp; encoded');
  });
});

describe('a greyscale JPEG', () => {
  it('decodes to grey pixels (one component copied to red, green and blue)', async () => {
    await ensureCodecs();
    const { data } = await decode(fixture('chelsea--cjpeg-grayscale-progressive.jpg'), 'jpeg', 0);
    const coloured = data.filter((_, i) => i % 4 === 0 && (data[i + 1] !== data[i] || data[i + 2] !== data[i]));
    expect([data.length > 0, coloured.length]).toEqual([true, 0]);
  });
});

describe('a height left to a DNL marker (SOF height 0)', () => {
  it('is served as it is', async () => {
    const jpeg = (await assetBytes('small/chelsea.jpg')).slice();
    const sof = jpeg.findIndex((byte, i) => byte === 0xff && (jpeg[i + 1] === 0xc0 || jpeg[i + 1] === 0xc2));
    jpeg[sof + 5] = 0;
    jpeg[sof + 6] = 0;
    const { bytes, note } = await negotiate(jpeg);
    expect([note, bytes.length]).toEqual(['original; not a decodable image', jpeg.length]);
  });
});
