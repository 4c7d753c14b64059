import { beforeEach, describe, expect, it } from 'vitest';
import { allowsVariant, variantDisposition } from '../../src/images/core/disposition';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

const photo = '/demo/images/small/chelsea.jpg';

/** An origin serving the photo with `disposition` as its Content-Disposition, as a download link or a CMS does. */
const origin = (disposition: string) => async () =>
  new Response(await assetBytes('small/chelsea.jpg'), {
    headers: { 'content-type': 'image/jpeg', 'content-disposition': disposition, etag: '"chelsea-dl"' },
  });

describe('allowsVariant', () => {
  it('negotiates images without a disposition or shown inline', () => {
    expect(allowsVariant(null)).toBe(true);
    expect(allowsVariant('  ')).toBe(true);
    expect(allowsVariant('inline')).toBe(true);
    expect(allowsVariant('INLINE; filename="a.jpg"')).toBe(true);
  });

  it('leaves downloads and every type a browser would treat as one alone', () => {
    expect(allowsVariant('attachment')).toBe(false);
    expect(allowsVariant('Attachment; filename="a.jpg"')).toBe(false);
    expect(allowsVariant('form-data; name="x"')).toBe(false);
    expect(allowsVariant('filename="a.jpg"')).toBe(false);
  });
});

describe('variantDisposition', () => {
  it('renames the file to the variant’s format, quoted or not, and the extended name too', () => {
    expect(variantDisposition('inline; filename="cat photo.jpg"', 'avif')).toBe('inline; filename="cat photo.avif"');
    expect(variantDisposition('inline; filename=cat.JPEG', 'webp')).toBe('inline; filename=cat.webp');
    expect(variantDisposition('inline; filename="c.png"; filename*=UTF-8\'\'k%C3%A4tzchen.png', 'webp')).toBe(
      'inline; filename="c.webp"; filename*=UTF-8\'\'k%C3%A4tzchen.webp',
    );
    expect(variantDisposition('inline; filename="a;b.jpg"', 'jpeg')).toBe('inline; filename="a;b.jpg"');
    expect(variantDisposition('inline; filename="a.png"', 'jpeg')).toBe('inline; filename="a.jpg"');
  });

  it('keeps names without an image extension and other parameters as they are', () => {
    expect(variantDisposition('inline; filename="report"', 'avif')).toBe('inline; filename="report"');
    expect(variantDisposition('inline; size=123', 'avif')).toBe('inline; size=123');
    expect(variantDisposition('inline', 'avif')).toBe('inline');
  });

  it('gives a variant no disposition when the original had none or was a download', () => {
    expect(variantDisposition(null, 'avif')).toBeNull();
    expect(variantDisposition('attachment; filename="a.jpg"', 'avif')).toBeNull();
  });
});

describe('negotiation and Content-Disposition', () => {
  beforeEach(clearVariants);

  it('passes a download through untouched: the visitor keeps the JPEG they asked to save', async () => {
    const disposition = 'attachment; filename="chelsea.jpg"';
    const original = await assetBytes('small/chelsea.jpg');
    const { response, bytes, header } = await callImages(
      photo,
      { headers: { accept: chromiumAccept } },
      {},
      origin(disposition),
    );
    expect(header?.format).toBe('jpeg');
    expect(bytes).toEqual(original);
    expect(response.headers.get('content-disposition')).toBe(disposition);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    // Every client gets the same bytes: nothing to vary on.
    expect(response.headers.get('vary') ?? '').not.toContain('Accept');
  });

  it('serves an inline image’s variant under its new file name', async () => {
    const { response, header } = await callImages(
      photo,
      { headers: { accept: 'image/webp,*/*' } },
      {},
      origin('inline; filename="chelsea.jpg"'),
    );
    expect(header?.format).toBe('webp');
    expect(response.headers.get('content-disposition')).toBe('inline; filename="chelsea.webp"');
  });
});
