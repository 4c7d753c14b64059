// Origins that answer with less than the file: a part of it (206), or a body whose connection drops. Nothing built
// from such bytes may be served or stored as if it were the image.
import { beforeEach, describe, expect, it } from 'vitest';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

beforeEach(clearVariants);

/** A body that sends the first `bytes` of `file` and then fails, as a reset connection does. */
const brokenBody = (file: Uint8Array, bytes: number) =>
  new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(file.slice(0, bytes));
      controller.error(new Error('connection reset'));
    },
  });

const jsonOf = (bytes: Uint8Array) => JSON.parse(new TextDecoder().decode(bytes));

describe('a source the origin answers with 206', () => {
  const partial = async () => {
    const jpeg = await assetBytes('small/chelsea.jpg');
    return new Response(jpeg.slice(0, 500), {
      status: 206,
      headers: { 'content-type': 'image/jpeg', 'content-range': `bytes 0-499/${jpeg.length}` },
    });
  };

  it('is a 502 from the URL API, not the part served as the image', async () => {
    const { response, bytes } = await callImages('/cdn-cgi/image/width=32/a.jpg', {}, {}, partial);
    expect([response.status, jsonOf(bytes).error]).toEqual([502, 'the source answered 206 with part of the file']);
  });

  it('redirects to the source with onerror=redirect', async () => {
    const { response } = await callImages('/cdn-cgi/image/width=32,onerror=redirect/a.jpg', {}, {}, partial);
    expect([response.status, response.headers.get('location')]).toEqual([302, 'http://speedkit.test/a.jpg']);
  });
});

describe('a source whose body breaks off', () => {
  const broken = async () =>
    new Response(brokenBody(await assetBytes('small/chelsea.jpg'), 1000), {
      headers: { 'content-type': 'image/jpeg' },
    });

  it('is a 502 from the URL API', async () => {
    const { response, bytes } = await callImages('/cdn-cgi/image/width=32/a.jpg', {}, {}, broken);
    expect([response.status, jsonOf(bytes).error]).toEqual([502, 'the source broke off before its end']);
  });

  it('redirects to the source with onerror=redirect', async () => {
    const { response } = await callImages('/cdn-cgi/image/width=32,onerror=redirect/a.jpg', {}, {}, broken);
    expect([response.status, response.headers.get('location')]).toEqual([302, 'http://speedkit.test/a.jpg']);
  });

  it('breaks off for the visitor too when negotiated, never ending as if complete', async () => {
    const { response } = await callImages('/a.jpg', { headers: { accept: chromiumAccept } }, {}, broken).catch(
      (error: unknown) => ({ response: error }),
    );
    expect(String(response)).toContain('connection reset');
  });
});
