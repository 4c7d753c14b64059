import { beforeEach, describe, expect, it } from 'vitest';
import { attachProfile } from '../../src/images/edge/attach-profile';
import { decode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { concatBytes } from '../../src/shared/image-header/bytes';
import { judgeProfile, profileIsSrgb, readColour } from '../../src/shared/image-header/colour-profile';
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
const pngWith = (png: Uint8Array, ...chunks: Uint8Array[]) =>
  concatBytes([png.subarray(0, 33), ...chunks, png.subarray(33)]);
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
    // None of them is carried into a variant either; a whole P3 profile is.
    for (const bad of [icc.subarray(0, 100), icc.subarray(0, icc.length - 40), cmyk, outside]) {
      expect(judgeProfile(bad).ok).toBe(false);
    }
    const p3 = jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));
    expect(judgeProfile(p3)).toMatchObject({ ok: true, profile: p3 });
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

/** What readColour says, in one word: sRGB as it is, a profile to carry, or a doubt. */
const verdict = (read: Awaited<ReturnType<typeof readColour>>) =>
  !read.ok ? 'doubt' : read.profile ? 'carry' : 'srgb';

describe('readColour', () => {
  it.each([
    ['coffee-icc-srgb.jpg', 'jpeg', 'srgb'],
    ['coffee-icc-srgb.png', 'png', 'srgb'],
    ['coffee-icc-p3.jpg', 'jpeg', 'carry'],
    ['coffee-icc-p3.png', 'png', 'carry'],
    ['coffee-icc-p3.webp', 'webp', 'carry'],
    ['coffee-icc-p3.avif', 'avif', 'carry'],
    ['coffee.jpg', 'jpeg', 'srgb'],
    ['coffee.png', 'png', 'srgb'],
    ['coffee.avif', 'avif', 'srgb'],
  ] as const)('%s: %s numbers are %s', async (name, format, expected) => {
    expect(verdict(await readColour(await assetBytes(`small/${name}`), format))).toBe(expected);
  });

  it('carries the P3 profile byte for byte and says how it differs', async () => {
    const read = await readColour(await assetBytes('small/coffee-icc-p3.jpg'), 'jpeg');
    expect(read).toEqual({
      ok: true,
      profile: jpegIcc(await assetBytes('small/coffee-icc-p3.jpg')),
      why: 'an ICC profile with wider or other colours than sRGB (Display P3, Adobe RGB, ...)',
    });
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
    expect(verdict(await readColour(pngWith(png, await iccp(p3), chunk('sRGB', new Uint8Array([0]))), 'png'))).toBe(
      'carry',
    );
  });

  it('ranks a PNG’s cICP over everything, and doubts coded colours other than sRGB', async () => {
    const png = await assetBytes('small/coffee.png');
    const p3 = jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));
    const hdr = chunk('cICP', new Uint8Array([9, 16, 0, 1])); // BT.2020 primaries, PQ transfer
    const coded = chunk('cICP', new Uint8Array([1, 13, 0, 1])); // sRGB
    expect(await readColour(pngWith(png, chunk('sRGB', new Uint8Array([0])), hdr), 'png')).toEqual({
      ok: false,
      reason: 'PNG colours (cICP) with primaries 9 and transfer 16 (not sRGB)',
    });
    expect(await readColour(pngWith(png, await iccp(p3), coded), 'png')).toEqual({ ok: true });
    expect((await readColour(pngWith(png, chunk('cICP', new Uint8Array([1, 13, 0]))), 'png')).ok).toBe(false);
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
    const build = (...segments: Uint8Array[]) => concatBytes([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
    const second = segment(2, 2, icc.subarray(half));
    const first = segment(1, 2, icc.subarray(0, half));
    expect(await readColour(build(second, first), 'jpeg')).toMatchObject({ ok: true, profile: icc });
    expect(await readColour(build(first), 'jpeg')).toEqual({ ok: false, reason: 'an ICC profile with chunks missing' });
  });
});

describe('colour profiles through the Worker', () => {
  beforeEach(clearVariants);
  const sync = { IMAGES_AVIF_MODE: 'sync' };
  const p3 = async () => jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));

  it.each([
    ['jpg', 'avif', chromiumAccept],
    ['png', 'avif', chromiumAccept],
    ['jpg', 'webp', 'image/webp,*/*'],
  ] as const)('negotiates a Display P3 %s to %s carrying the same profile', async (extension, format, accept) => {
    const { header, bytes, note } = await callImages(
      `/demo/images/small/coffee-icc-p3.${extension}`,
      { headers: { accept } },
      sync,
    );
    expect(note).toBe(`${format}; encoded`);
    expect(header).toMatchObject({ format, width: 96, height: 64 });
    const read = await readColour(bytes, format);
    expect(read.ok && read.profile).toEqual(await p3());
    await ensureCodecs();
    expect(await decode(bytes, format, 0)).toMatchObject({ width: 96, height: 64 });
  });

  it.each([
    ['webp', 'webp'],
    ['avif', 'avif'],
    ['jpeg', 'jpeg'],
    ['baseline-jpeg', 'jpeg'],
    ['png', 'png'],
  ] as const)('keeps the profile in a resized format=%s from the URL API', async (option, format) => {
    const { header, bytes } = await callImages(
      `/cdn-cgi/image/width=40,format=${option}/demo/images/small/coffee-icc-p3.webp`,
      {},
      sync,
    );
    expect(header).toMatchObject({ format, width: 40 });
    const read = await readColour(bytes, format);
    expect(read.ok && read.profile).toEqual(await p3());
    await ensureCodecs();
    expect(await decode(bytes, format, 0)).toMatchObject({ width: 40 });
  });

  it('serves an HDR PNG (cICP: BT.2020, PQ) as it is', async () => {
    const png = await assetBytes('small/coffee.png');
    const hdr = pngWith(png, chunk('cICP', new Uint8Array([9, 16, 0, 1])));
    const { bytes, note } = await callImages(
      '/hdr.png',
      { headers: { accept: chromiumAccept } },
      sync,
      async () => new Response(hdr, { headers: { 'content-type': 'image/png' } }),
    );
    expect({ note, bytes: bytes.length }).toEqual({
      note: 'original; colours: PNG colours (cICP) with primaries 9 and transfer 16 (not sRGB)',
      bytes: hdr.length,
    });
  });

  it('keeps the profile of an AVIF with an alpha channel (two items, two iloc entries)', async () => {
    // The source has alpha; its AVIF variant holds a colour item and an alpha item, each with data in mdat.
    const { header, bytes } = await callImages(
      '/cdn-cgi/image/width=48,height=48,fit=pad,format=avif/demo/images/small/coffee-icc-p3.png',
      {},
      sync,
    );
    expect(header).toMatchObject({ format: 'avif', width: 48, height: 48 });
    const read = await readColour(bytes, 'avif');
    expect(read.ok && read.profile).toEqual(await p3());
    await ensureCodecs();
    const pixels = await decode(bytes, 'avif', 0);
    // The padding is transparent, the photo opaque: both items decoded from their moved offsets.
    expect(pixels.data[3]).toBe(0);
    expect(pixels.data[(24 * 48 + 24) * 4 + 3]).toBe(255);
  });

  it('re-encodes an sRGB-tagged JPEG to AVIF without a profile', async () => {
    const { note, bytes } = await callImages(
      '/demo/images/small/coffee-icc-srgb.jpg',
      { headers: { accept: chromiumAccept } },
      sync,
    );
    expect(note).toBe('avif; encoded');
    expect(await readColour(bytes, 'avif')).toEqual({ ok: true });
  });
});

describe('attachProfile on bytes it does not expect', () => {
  it.each(['webp', 'avif', 'jpeg', 'png'] as const)(
    'refuses a %s it cannot follow instead of writing a broken file',
    async (format) => {
      const icc = jpegIcc(await assetBytes('small/coffee-icc-p3.jpg'));
      const garbage = new Uint8Array(64).fill(0x41);
      await expect(attachProfile(garbage, format, icc, 8, 8)).rejects.toThrow();
      // A file of another format is as foreign as garbage.
      const other = await assetBytes(format === 'png' ? 'small/coffee.jpg' : 'small/coffee.png');
      await expect(attachProfile(other, format, icc, 96, 64)).rejects.toThrow();
    },
  );
});
