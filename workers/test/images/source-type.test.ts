import { beforeEach, describe, expect, it } from 'vitest';
import { claimedFormat } from '../../src/images/core/source-type';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

describe('claimedFormat', () => {
  it('reads the Content-Type, old names included', () => {
    expect(claimedFormat('image/jpeg', '/a', null)).toBe('jpeg');
    expect(claimedFormat('IMAGE/JPG; charset=binary', '/a', 'document')).toBe('jpeg');
    expect(claimedFormat('image/x-png', '/a', null)).toBe('png');
    expect(claimedFormat('text/html', '/a.jpg', 'image')).toBeUndefined();
    expect(claimedFormat('constructor', '/a.jpg', 'image')).toBeUndefined();
  });

  it('takes an untyped object-store file’s extension when an image element asked for it', () => {
    expect(claimedFormat('application/octet-stream', '/photos/a.JPG', 'image')).toBe('jpeg');
    expect(claimedFormat('binary/octet-stream', '/a.png', null)).toBe('png');
    expect(claimedFormat('application/octet-stream', '/a.webp', 'empty')).toBe('webp');
    // A navigation to an untyped file is a download; other extensions and other types say nothing.
    expect(claimedFormat('application/octet-stream', '/a.jpg', 'document')).toBeUndefined();
    expect(claimedFormat('application/octet-stream', '/a.zip', 'image')).toBeUndefined();
    expect(claimedFormat('application/octet-stream', '/a.jpg/', 'image')).toBeUndefined();
    expect(claimedFormat(null, '/a.jpg', 'image')).toBeUndefined();
  });
});

describe('negotiation of untyped object-store images', () => {
  beforeEach(clearVariants);
  const s3 = (path: string) => async () =>
    new Response(await assetBytes(path), { headers: { 'content-type': 'binary/octet-stream', etag: '"s3-1"' } });
  const image = (accept = chromiumAccept, dest = 'image') => ({ headers: { accept, 'sec-fetch-dest': dest } });

  it('serves a modern variant of a JPEG stored as binary/octet-stream, typed as what it is', async () => {
    const { response, header } = await callImages(
      '/uploads/chelsea.jpg',
      image('image/webp,*/*'),
      {},
      s3('small/chelsea.jpg'),
    );
    expect(header?.format).toBe('webp');
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('vary')).toContain('Accept');
  });

  it('leaves a navigation, and bytes that are not what the extension says, as the origin sent them', async () => {
    const original = await assetBytes('small/chelsea.jpg');
    const navigation = await callImages(
      '/uploads/chelsea.jpg',
      image(chromiumAccept, 'document'),
      {},
      s3('small/chelsea.jpg'),
    );
    expect(navigation.bytes).toEqual(original);
    expect(navigation.response.headers.get('content-type')).toBe('binary/octet-stream');
    const misnamed = await callImages('/uploads/chelsea.png', image(), {}, s3('small/chelsea.jpg'));
    expect(misnamed.bytes).toEqual(original);
    expect(misnamed.response.headers.get('content-type')).toBe('binary/octet-stream');
    expect(misnamed.note).toMatch(/^original; /);
  });
});
