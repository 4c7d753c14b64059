import { describe, expect, it } from 'vitest';
import { readAvifHeader } from '../../src/shared/image-header/avif';
import { magicNumberFormat, sniffImageFormat } from '../../src/shared/image-header/format';
import { readJpegFrameHeader } from '../../src/shared/image-header/jpeg-frame';

const box = (type: string, body: number[]) => {
  const size = 8 + body.length;
  return [
    size >>> 24,
    (size >> 16) & 255,
    (size >> 8) & 255,
    size & 255,
    ...[...type].map((c) => c.charCodeAt(0)),
    ...body,
  ];
};
const u32 = (n: number) => [n >>> 24, (n >> 16) & 255, (n >> 8) & 255, n & 255];
const brand = (text: string) => [...text].map((c) => c.charCodeAt(0));
const ftyp = (major: string) => box('ftyp', [...brand(major), 0, 0, 0, 0, ...brand('mif1')]);
const meta = box('meta', [0, 0, 0, 0, ...box('ispe', [0, 0, 0, 0, ...u32(640), ...u32(480)])]);

describe('shared image header readers', () => {
  it('tells formats apart by magic number; only sniffImageFormat judges ISO-BMFF brands', () => {
    const heic = new Uint8Array(ftyp('heic'));
    expect(magicNumberFormat(heic)).toBe('avif');
    expect(sniffImageFormat(heic)).toBeNull();
    expect(sniffImageFormat(new Uint8Array(ftyp('avis')))).toBe('avif');
    expect(magicNumberFormat(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(magicNumberFormat(new TextEncoder().encode('GIF89a......'))).toBe('gif');
    expect(magicNumberFormat(new TextEncoder().encode('<svg></svg>'))).toBeNull();
  });

  it('reads AVIF after mdat only when the caller holds the whole file', () => {
    const mdatFirst = new Uint8Array([...ftyp('avis'), ...box('mdat', [1, 2, 3]), ...meta]);
    expect(readAvifHeader(mdatFirst)).toEqual({ kind: 'invalid', reason: 'AVIF with mdat before meta' });
    expect(readAvifHeader(mdatFirst, { mdatFirst: 'skip' })).toMatchObject({
      kind: 'done',
      header: { format: 'avif', width: 640, height: 480, headerEndBytes: mdatFirst.length },
      brands: { majorBrand: 'avis' },
    });
    expect(readAvifHeader(mdatFirst.subarray(0, mdatFirst.length - 4), { mdatFirst: 'skip' }).kind).toBe('more');
  });

  it('reads JPEG dimensions from the first frame header within the scan bound', () => {
    const app0 = [0xff, 0xe0, 0, 16, ...new Array(14).fill(0)];
    const sof0 = [0xff, 0xc0, 0, 11, 8, 0, 30, 0, 40, 1, 1, 0x11, 0];
    const jpeg = new Uint8Array([0xff, 0xd8, ...app0, ...sof0, 0xff, 0xd9]);
    expect(readJpegFrameHeader(jpeg, 1024)).toEqual({
      kind: 'done',
      header: { format: 'jpeg', width: 40, height: 30, headerEndBytes: 2 + app0.length + sof0.length },
    });
    expect(readJpegFrameHeader(jpeg, 10).kind).toBe('invalid');
  });
});
