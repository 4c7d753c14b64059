// Animated sources are served as they are by negotiation and by every URL option: the codecs decode one frame, and a
// still variant of an animation is a broken image.
import { beforeEach, describe, expect, it } from 'vitest';
import { readImageHeader } from '../../src/shared/image-header/whole-file';
import { callImages, chromiumAccept, clearVariants } from './helpers';
import { acTL, pngChunk, rgbaPng, withChunksAfterHeader } from './png-fixture';

beforeEach(clearVariants);

const gradient = (x: number, y: number) => [x * 4, y * 5, 128, 255];
/** A tEXt chunk of `bytes` bytes: the size of the XMP, thumbnails and comments real tools put before the image. */
const largeText = (bytes: number) => {
  const text = new Uint8Array(bytes).fill(0x41);
  text.set(new TextEncoder().encode('Comment\0'));
  return pngChunk('tEXt', text);
};

/** An APNG whose animation control chunk comes after 300 KB of metadata. */
const apngBehindMetadata = async () =>
  withChunksAfterHeader(await rgbaPng(64, 48, gradient), largeText(300_000), acTL(2));

const fromOrigin = (bytes: Uint8Array) => async () => new Response(bytes, { headers: { 'content-type': 'image/png' } });

describe('APNG', () => {
  it('is animated when its acTL comes after metadata larger than the header window', async () => {
    expect(readImageHeader(await apngBehindMetadata())?.animated).toBe(true);
  });

  it('is still a PNG with a large text chunk and no acTL', async () => {
    const png = withChunksAfterHeader(await rgbaPng(64, 48, gradient), largeText(300_000));
    expect(readImageHeader(png)?.animated).toBe(false);
  });

  it.each([
    ['negotiated', '/a.png'],
    ['resized by the URL API', '/cdn-cgi/image/width=32/a.png'],
    ['converted by the URL API', '/cdn-cgi/image/width=32,format=auto/a.png'],
  ])('is served as it is when %s', async (_case, path) => {
    const apng = await apngBehindMetadata();
    const { bytes, note } = await callImages(
      path,
      { headers: { accept: chromiumAccept } },
      { IMAGES_AVIF_MODE: 'sync' },
      fromOrigin(apng),
    );
    expect({ note, same: bytes.length === apng.length && bytes.every((byte, i) => byte === apng[i]) }).toEqual({
      note: 'original; animated',
      same: true,
    });
  });

  it('is described as animated by format=json', async () => {
    const { bytes } = await callImages(
      '/cdn-cgi/image/format=json/a.png',
      {},
      {},
      fromOrigin(await apngBehindMetadata()),
    );
    expect(JSON.parse(new TextDecoder().decode(bytes))).toMatchObject({ format: 'image/png', animated: true });
  });
});
