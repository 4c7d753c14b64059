import { describe, expect, it } from 'vitest';
import { walkJpeg } from '../../src/images/core/jpeg-structure';
import { decode, instantiations } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { fixtures } from '../priority/fixtures';
import { walkJpeg as independentWalk } from '../priority/walk-jpeg';
import { assetBytes, callImages, chromiumAccept } from './helpers';
import { manyScanJpeg } from './hostile';

const limits = { maxScans: 100, maxMarkers: 1000 };

describe('walkJpeg', () => {
  const huffman = fixtures.filter((f) => f.name.endsWith('.jpg') && !f.name.includes('arithmetic'));
  it.each(huffman.map((f) => [f.name, f.bytes] as const))(
    'counts the scans of %s like an independent whole-file walk',
    (_name, bytes) => {
      const walk = walkJpeg(bytes, limits);
      expect(walk.ok).toBe(true);
      if (walk.ok) expect(walk.structure.scans).toBe(independentWalk(bytes).scans.length);
    },
  );

  it('stops at the scan limit, however many scans follow', () => {
    expect(walkJpeg(manyScanJpeg(1728, 10_000), limits)).toEqual({ ok: false, reason: 'more than 100 JPEG scans' });
  });

  /** `jpeg` with its frame header's marker and sample precision replaced. */
  const withFrame = (jpeg: Uint8Array, marker: number, precision = 8) => {
    const bytes = jpeg.slice();
    const at = bytes.findIndex((byte, i) => byte === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2));
    bytes[at + 1] = marker;
    bytes[at + 4] = precision;
    return bytes;
  };
  const baseline = fixtures.find((f) => f.name === 'chelsea--sharp-baseline.jpg')?.bytes ?? new Uint8Array();

  it.each([
    ['an arithmetic-coded JPEG (cjpeg -arithmetic)', fixtures.find((f) => f.name.includes('arithmetic'))?.bytes],
    ['an arithmetic-coded JPEG', withFrame(baseline, 0xc9)],
    ['a hierarchical JPEG', withFrame(baseline, 0xc5)],
    ['a lossless JPEG', withFrame(baseline, 0xc3)],
    ['a 12-bit JPEG', withFrame(baseline, 0xc1, 12)],
  ])('names %s before any decoding', (name, bytes) => {
    const walk = walkJpeg(bytes ?? new Uint8Array(), limits);
    expect(walk.ok ? 'decodable' : walk.reason.slice(0, walk.reason.indexOf(':'))).toBe(name.replace(/ \(.*/, ''));
  });

  it('lets an 8-bit extended sequential (SOF1) frame through: the codec decodes it', () => {
    expect(walkJpeg(withFrame(baseline, 0xc1), limits).ok).toBe(true);
  });

  it('refuses what is not a JPEG', () => {
    expect(walkJpeg(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), limits).ok).toBe(false);
  });
});

describe('an arithmetic-coded JPEG through the Worker', () => {
  it('is served as it is without a decoder being started for it', async () => {
    const arithmetic = fixtures.find((f) => f.name === 'chelsea--cjpeg-arithmetic-progressive.jpg')?.bytes;
    await ensureCodecs();
    await decode(await assetBytes('small/chelsea.jpg'), 'jpeg', 0);
    const before = instantiations.get('jpegDecode');
    const { bytes, note } = await callImages(
      '/arithmetic.jpg',
      { headers: { accept: chromiumAccept } },
      { IMAGES_AVIF_MODE: 'sync' },
      async () => new Response(arithmetic, { headers: { 'content-type': 'image/jpeg' } }),
    );
    expect({ note, bytes: bytes.length, instantiations: instantiations.get('jpegDecode') }).toEqual({
      note: 'original; an arithmetic-coded JPEG: the codec decodes Huffman-coded ones only',
      bytes: arithmetic?.length,
      instantiations: before,
    });
  });
});
