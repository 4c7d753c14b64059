import { beforeEach, describe, expect, it } from 'vitest';
import { profileIsSrgb, readColour } from '../../src/shared/image-header/colour-profile';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

const ascii = (text: string) => new Uint8Array([...text].map((c) => c.charCodeAt(0)));

/** The ICC profile of a JPEG's ICC_PROFILE APP2 segments (sharp writes one). */
function jpegIcc(jpeg: Uint8Array): Uint8Array {
  for (let at = 2; at + 4 < jpeg.length; ) {
    const length = (jpeg[at + 2] as number) * 256 + (jpeg[at + 3] as number);
    if (jpeg[at + 1] === 0xe2) return jpeg.slice(at + 4 + 14, at + 2 + length);
    at += 2 + length;
  }
  throw new Error('no ICC profile');
}

/** A copy of `icc` with the `rTRC`, `gTRC` and `bTRC` tags pointing at one `curv` gamma curve appended to it. */
function withGamma(icc: Uint8Array, gamma: number): Uint8Array {
  const out = new Uint8Array(icc.length + 14);
  out.set(icc);
  const view = new DataView(out.buffer);
  out.set(ascii('curv'), icc.length);
  view.setUint32(icc.length + 8, 1);
  view.setUint16(icc.length + 12, Math.round(gamma * 256));
  view.setUint32(0, out.length);
  for (let entry = 132; entry < 132 + view.getUint32(128) * 12; entry += 12) {
    if (/^[rgb]TRC$/.test(String.fromCharCode(...out.subarray(entry, entry + 4)))) {
      view.setUint32(entry + 4, icc.length);
      view.setUint32(entry + 8, 14);
    }
  }
  return out;
}

/** A PNG chunk: length, type, data and a CRC (not checked by the reader, written as zero). */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  new DataView(out.buffer).setUint32(0, data.length);
  out.set(ascii(type), 4);
  out.set(data, 8);
  return out;
}
const u32 = (...values: number[]) => {
  const out = new Uint8Array(values.length * 4);
  values.forEach((value, i) => {
    new DataView(out.buffer).setUint32(i * 4, value);
  });
  return out;
};
/** `png` with `chunks` inserted after IHDR. */
function pngWith(png: Uint8Array, ...chunks: Uint8Array[]): Uint8Array {
  const parts = [png.subarray(0, 33), ...chunks, png.subarray(33)];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
async function zlib(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}
const iccp = async (icc: Uint8Array) => chunk('iCCP', new Uint8Array([...ascii('icc'), 0, 0, ...(await zlib(icc))]));

describe('profileIsSrgb', () => {
  it('accepts sharp’s sRGB profile and refuses its Display P3 one by their colorants', async () => {
    expect(profileIsSrgb(jpegIcc(await assetBytes('small/coffee-icc-srgb.jpg')))).toEqual({ ok: true });
    expect(profileIsSrgb(jpegIcc(await assetBytes('small/coffee-icc-p3.jpg')))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('wider or other colours than sRGB'),
    });
  });

  it('accepts a gamma 2.2 curve as sRGB’s and refuses gamma 1.8 and 1.0', async () => {
    const icc = jpegIcc(await assetBytes('small/coffee-icc-srgb.jpg'));
    expect(profileIsSrgb(withGamma(icc, 2.2)).ok).toBe(true);
    expect(profileIsSrgb(withGamma(icc, 1.8))).toMatchObject({
      ok: false,
      reason: expect.stringContaining('tone curve'),
    });
    expect(profileIsSrgb(withGamma(icc, 1)).ok).toBe(false);
  });

  it('refuses cut profiles, CMYK profiles and tag tables pointing outside the profile', async () => {
    const icc = jpegIcc(await assetBytes('small/coffee-icc-srgb.jpg'));
    expect(profileIsSrgb(icc.subarray(0, 100)).ok).toBe(false);
    expect(profileIsSrgb(icc.subarray(0, icc.length - 40)).ok).toBe(false);
    const cmyk = icc.slice();
    cmyk.set(ascii('CMYK'), 16);
    expect(profileIsSrgb(cmyk)).toEqual({ ok: false, reason: 'a CMYK ICC profile' });
    const outside = icc.slice();
    new DataView(outside.buffer).setUint32(132 + 4, 0xfffffff0);
    for (let entry = 0; entry < new DataView(icc.buffer, icc.byteOffset).getUint32(128); entry++) {
      new DataView(outside.buffer).setUint32(132 + entry * 12 + 4, 0xfffffff0);
    }
    expect(profileIsSrgb(outside).ok).toBe(false);
  });

  it('never throws on any single-byte change of a profile', async () => {
    const icc = jpegIcc(await assetBytes('small/coffee-icc-srgb.jpg'));
    for (let at = 0; at < icc.length; at++) {
      for (const value of [0x00, 0x80, 0xff]) {
        const changed = icc.slice();
        changed[at] = value;
        const read = profileIsSrgb(changed);
        expect(read.ok || read.reason.length > 0).toBe(true);
      }
    }
  });
});

describe('readColour', () => {
  it.each([
    ['coffee-icc-srgb.jpg', 'jpeg', true],
    ['coffee-icc-srgb.png', 'png', true],
    ['coffee-icc-p3.jpg', 'jpeg', false],
    ['coffee-icc-p3.png', 'png', false],
    ['coffee-icc-p3.webp', 'webp', false],
    ['coffee.jpg', 'jpeg', true],
    ['coffee.png', 'png', true],
    ['coffee.avif', 'avif', true],
  ] as const)('%s may be re-encoded as sRGB: %s', async (name, format, ok) => {
    expect((await readColour(await assetBytes(`small/${name}`), format)).ok).toBe(ok);
  });

  it('ranks a PNG’s iCCP over sRGB over cHRM and gAMA, as browsers do', async () => {
    const png = await assetBytes('small/coffee.png');
    const p3 = jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));
    const linear = chunk('gAMA', u32(100000));
    const wide = chunk('cHRM', u32(31270, 32900, 70800, 29200, 17000, 79700, 13100, 4600)); // BT.2020
    expect(await readColour(pngWith(png, linear), 'png')).toEqual({
      ok: false,
      reason: 'a PNG gamma (gAMA) of 1/1.00',
    });
    expect((await readColour(pngWith(png, wide), 'png')).ok).toBe(false);
    expect((await readColour(pngWith(png, chunk('gAMA', u32(45455))), 'png')).ok).toBe(true);
    expect((await readColour(pngWith(png, chunk('sRGB', new Uint8Array([0])), linear, wide), 'png')).ok).toBe(true);
    expect((await readColour(pngWith(png, await iccp(p3), chunk('sRGB', new Uint8Array([0]))), 'png')).ok).toBe(false);
  });

  it('doubts a PNG profile that is not zlib, is corrupt or inflates past its limit', async () => {
    const png = await assetBytes('small/coffee.png');
    expect(
      (await readColour(pngWith(png, chunk('iCCP', new Uint8Array([...ascii('icc'), 0, 1, 1, 2]))), 'png')).ok,
    ).toBe(false);
    expect(
      (await readColour(pngWith(png, chunk('iCCP', new Uint8Array([...ascii('icc'), 0, 0, 1, 2, 3]))), 'png')).ok,
    ).toBe(false);
    // 4 MB of zeros deflate to about 4 KB: a bomb aimed at whoever inflates it.
    const bomb = await iccp(new Uint8Array(4 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(10_000);
    expect(await readColour(pngWith(png, bomb), 'png')).toEqual({
      ok: false,
      reason: 'a PNG ICC profile that does not inflate within its limit',
    });
  });

  it('reads a JPEG profile split over several APP2 segments, and doubts a missing chunk', async () => {
    const jpeg = await assetBytes('small/coffee.jpg');
    const icc = jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));
    const half = Math.ceil(icc.length / 2);
    const segment = (sequence: number, count: number, part: Uint8Array) => {
      const out = new Uint8Array(4 + 14 + part.length);
      out.set([0xff, 0xe2, (out.length - 2) >> 8, (out.length - 2) & 0xff], 0);
      out.set([...ascii('ICC_PROFILE'), 0, sequence, count], 4);
      out.set(part, 18);
      return out;
    };
    const build = (...segments: Uint8Array[]) => {
      const parts = [jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)];
      const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
      let at = 0;
      for (const part of parts) {
        out.set(part, at);
        at += part.length;
      }
      return out;
    };
    const second = segment(2, 2, icc.subarray(half));
    const first = segment(1, 2, icc.subarray(0, half));
    expect(await readColour(build(second, first), 'jpeg')).toMatchObject({
      ok: false,
      reason: expect.stringContaining('sRGB'),
    });
    expect(await readColour(build(first), 'jpeg')).toEqual({ ok: false, reason: 'an ICC profile with chunks missing' });
  });
});

describe('colour profiles through the Worker', () => {
  beforeEach(clearVariants);
  const sync = { IMAGES_AVIF_MODE: 'sync' };

  it.each(['jpg', 'png'])('serves a Display P3 %s as it is, with the reason', async (format) => {
    const path = `small/coffee-icc-p3.${format}`;
    const { bytes, note } = await callImages(`/demo/images/${path}`, { headers: { accept: chromiumAccept } }, sync);
    expect(bytes).toEqual(await assetBytes(path));
    expect(note).toBe(
      'original; colours: an ICC profile with wider or other colours than sRGB (Display P3, Adobe RGB, ...)',
    );
  });

  it('re-encodes an sRGB-tagged JPEG, and the URL API passes a P3 one through', async () => {
    expect(
      (await callImages('/demo/images/small/coffee-icc-srgb.jpg', { headers: { accept: chromiumAccept } }, sync)).note,
    ).toBe('avif; encoded');
    const resized = await callImages(
      '/cdn-cgi/image/width=40,format=webp/demo/images/small/coffee-icc-p3.webp',
      {},
      sync,
    );
    expect(resized.bytes).toEqual(await assetBytes('small/coffee-icc-p3.webp'));
    expect(resized.note).toContain('original; colours:');
  });
});
