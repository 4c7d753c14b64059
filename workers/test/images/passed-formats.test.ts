// HEIC/HEIF and JPEG XL sources: images browsers (Safari) show that the codecs cannot read, served by the URL API as
// they are, with their own type.
import { describe, expect, it } from 'vitest';
import { passedImageType } from '../../src/images/core/passed-formats';
import { concatBytes } from '../../src/shared/image-header/bytes';
import { callImages } from './helpers';

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
/** An ISO-BMFF `ftyp` box with these brands (the first is the major one), then some bytes of other boxes. */
const ftyp = (...brands: string[]) => {
  const [major = '', ...compatible] = brands;
  const body = concatBytes([ascii(major), new Uint8Array(4), ...compatible.map(ascii)]);
  return concatBytes([new Uint8Array([0, 0, 0, 8 + body.length]), ascii('ftyp'), body, new Uint8Array(64).fill(1)]);
};
const jxlCodestream = new Uint8Array([0xff, 0x0a, 0xfa, 0x7f, ...new Array(60).fill(3)]);
const jxlContainer = new Uint8Array([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a, 0, 0, 0, 0x14]);

describe('passedImageType', () => {
  it.each([
    ['an iPhone HEIC (heic, mif1)', ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['a HEIF image collection (mif1 only)', ftyp('mif1', 'mif1'), 'image/heif'],
    ['a HEIC sequence (msf1, hevc)', ftyp('msf1', 'msf1', 'hevc'), 'image/heic'],
    ['a JPEG XL codestream', jxlCodestream, 'image/jxl'],
    ['a JPEG XL container', jxlContainer, 'image/jxl'],
    ['an AVIF (avif, mif1)', ftyp('avif', 'mif1', 'miaf'), null],
    ['an MP4 video', ftyp('isom', 'isom', 'mp41'), null],
    ['an HTML page', ascii('<!doctype html><title>x</title>'), null],
    ['nothing', new Uint8Array(), null],
  ])('names %s', (_name, bytes, type) => {
    expect(passedImageType(bytes)).toBe(type);
  });
});

describe('the URL API with a HEIC or JPEG XL source', () => {
  const origin = (bytes: Uint8Array, type: string) => async () =>
    new Response(bytes, { headers: { 'content-type': type } });

  it.each([
    ['x.heic', ftyp('heic', 'mif1', 'heic'), 'image/heic'],
    ['x.jxl', jxlCodestream, 'image/jxl'],
  ])('serves %s as it is, with its own type, not as a 415', async (file, source, type) => {
    const { response, bytes, note } = await callImages(`/cdn-cgi/image/width=32/${file}`, {}, {}, origin(source, type));
    expect({
      status: response.status,
      type: response.headers.get('content-type'),
      nosniff: response.headers.get('x-content-type-options'),
      note,
      same: bytes.length === source.length && bytes.every((byte, i) => byte === source[i]),
    }).toEqual({
      status: 200,
      type,
      nosniff: 'nosniff',
      note: 'original; a format the codecs do not read',
      same: true,
    });
  });

  it('serves a HEIC over the input limit as it is too', async () => {
    const source = concatBytes([ftyp('heic', 'mif1', 'heic'), new Uint8Array(4096)]);
    const { response, bytes } = await callImages(
      '/cdn-cgi/image/width=32/x.heic',
      {},
      { IMAGES_MAX_INPUT_BYTES: '1024' },
      origin(source, 'application/octet-stream'),
    );
    expect([response.status, response.headers.get('content-type'), bytes.length]).toEqual([
      200,
      'image/heic',
      source.length,
    ]);
  });

  it('still refuses a page as the source', async () => {
    const page = ascii('<!doctype html><script>alert(1)</script>');
    const { response } = await callImages('/cdn-cgi/image/width=32/x.heic', {}, {}, origin(page, 'image/heic'));
    expect(response.status).toBe(415);
  });
});
