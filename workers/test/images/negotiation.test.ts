import { exports } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/images/core/config';
import { walkJpeg } from '../../src/images/core/jpeg-structure';
import { estimateWork, withinBudget } from '../../src/images/core/work-budget';
import { readImageHeader } from '../../src/shared/image-header/whole-file';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';

const accept = (value: string) => ({ headers: { accept: value } });
const image = '/demo/images/small/chelsea.jpg';

beforeEach(clearVariants);

describe('Accept negotiation in background mode (the default)', () => {
  it('serves WebP at once and stores AVIF from ctx.waitUntil for the next request', async () => {
    const first = await callImages(image, accept(chromiumAccept));
    expect(first.response.headers.get('content-type')).toBe('image/webp');
    expect(first.header).toMatchObject({ format: 'webp', width: 96, height: 64 });
    const second = await callImages(image, accept(chromiumAccept));
    expect(second.note).toBe('avif; stored');
    expect(second.response.headers.get('content-type')).toBe('image/avif');
    expect(second.header).toMatchObject({ format: 'avif', width: 96, height: 64 });
  });

  it('serves the original while AVIF is pending when the client accepts only AVIF', async () => {
    const first = await callImages(image, accept('image/avif,*/*;q=0.5'));
    expect(first.bytes).toEqual(await assetBytes('small/chelsea.jpg'));
    expect((await callImages(image, accept('image/avif,*/*;q=0.5'))).header?.format).toBe('avif');
  });
});

describe('Accept negotiation in sync mode', () => {
  const sync = { IMAGES_AVIF_MODE: 'sync' };

  it.each([
    ['Chromium', chromiumAccept, 'image/avif'],
    ['a WebP-only client', 'image/webp,*/*', 'image/webp'],
    ['a client refusing AVIF with q=0', 'image/avif;q=0,image/webp', 'image/webp'],
    ['Safari 13 (image/* only)', 'image/png,image/*;q=0.8,*/*;q=0.5', 'image/jpeg'],
    ['curl', '*/*', 'image/jpeg'],
    ['garbage', '%%%;q=x', 'image/jpeg'],
  ])('answers %s with %s and Vary: Accept', async (_name, value, type) => {
    const { response } = await callImages(image, accept(value), sync);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe(type);
    expect(response.headers.get('vary')).toContain('Accept');
  });

  it('serves the original bytes untouched with Vary: Accept when there is no Accept header', async () => {
    const { response, bytes } = await callImages(image, {}, sync);
    expect(bytes).toEqual(await assetBytes('small/chelsea.jpg'));
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it('gives a variant its own Content-Length and ETag and keeps the caching headers', async () => {
    const original = await callImages(image, {}, sync);
    const { response, bytes } = await callImages(image, accept('image/webp'), sync);
    expect(Number(response.headers.get('content-length'))).toBe(bytes.byteLength);
    expect(bytes.byteLength).toBeLessThan(original.bytes.byteLength);
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]{32}-webp"$/);
    expect(response.headers.get('etag')).not.toBe(original.response.headers.get('etag'));
    expect(response.headers.get('cache-control')).toBe(original.response.headers.get('cache-control'));
  });

  it('answers 304 when the client already has the variant', async () => {
    const { response } = await callImages(image, accept('image/webp'), sync);
    const etag = response.headers.get('etag') ?? '';
    const again = await callImages(image, { headers: { accept: 'image/webp', 'if-none-match': etag } }, sync);
    expect(again.response.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
  });

  it('serves the original when the re-encode is not smaller', async () => {
    const { bytes, note } = await callImages('/demo/images/small/coffee-q5.jpg', accept('image/webp'), sync);
    expect(bytes).toEqual(await assetBytes('small/coffee-q5.jpg'));
    expect(note).toContain('not smaller');
  });

  it('falls back to WebP for images over the AVIF megapixel limit', async () => {
    const { header } = await callImages(image, accept(chromiumAccept), {
      ...sync,
      IMAGES_MAX_AVIF_MEGAPIXELS: '0.005',
    });
    expect(header?.format).toBe('webp');
  });

  it('converts PNG (including grayscale) and WebP sources', async () => {
    expect((await callImages('/demo/images/small/brick.png', accept('image/webp'), sync)).header?.format).toBe('webp');
    expect((await callImages('/demo/images/small/coffee.webp', accept(chromiumAccept), sync)).header?.format).toBe(
      'avif',
    );
  });
});

describe('Accept negotiation passes the original through when in doubt', () => {
  it.each([
    ['a truncated JPEG', 'broken/truncated.jpg', 'truncated'],
    ['bytes that only look like a JPEG', 'broken/garbage.jpg', 'not a decodable image'],
    ['HTML served as .png', 'broken/not-an-image.png', 'not a decodable image'],
    ['a 900 MP decompression bomb (refused from its header)', 'broken/bomb.png', 'over 3 MP'],
    ['an animated GIF', 'broken/animated.gif', 'animated'],
  ])('serves %s as it is', async (_name, path, reason) => {
    const { response, bytes, note } = await callImages(`/demo/images/${path}`, accept(chromiumAccept), {
      IMAGES_AVIF_MODE: 'sync',
    });
    expect(response.status).toBe(200);
    expect(bytes).toEqual(await assetBytes(path));
    expect(note).toContain(reason);
  });

  it('enforces the byte limit before reading the image', async () => {
    const { bytes, note } = await callImages(image, accept(chromiumAccept), { IMAGES_MAX_INPUT_BYTES: '1000' });
    expect(bytes).toEqual(await assetBytes('small/chelsea.jpg'));
    expect(note).toContain('over 1000 bytes');
  });

  it('enforces the megapixel limit from the header', async () => {
    const { note } = await callImages('/demo/images/chelsea.jpg', accept(chromiumAccept), {
      IMAGES_MAX_INPUT_MEGAPIXELS: '0.1',
    });
    expect(note).toContain('over 0.1 MP');
  });

  it('leaves paths outside IMAGES_ROUTES alone (no Vary either)', async () => {
    const { response } = await callImages(image, accept(chromiumAccept), { IMAGES_ROUTES: '/photos/' });
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('vary')).toBeNull();
  });

  it('leaves range requests, HTML and Cache-Control: no-transform alone', async () => {
    const bytes = await assetBytes('small/chelsea.jpg');
    const partial = new Response(bytes.slice(0, 100), {
      status: 206,
      headers: { 'content-type': 'image/jpeg', 'content-range': `bytes 0-99/${bytes.byteLength}` },
    });
    const range = await callImages(
      image,
      { headers: { accept: chromiumAccept, range: 'bytes=0-99' } },
      {},
      async () => partial,
    );
    expect(range.response).toBe(partial);
    const noTransform = await callImages(
      image,
      accept(chromiumAccept),
      {},
      async () =>
        new Response(bytes, { headers: { 'content-type': 'image/jpeg', 'cache-control': 'public, no-transform' } }),
    );
    expect(noTransform.bytes).toEqual(bytes);
    expect(noTransform.response.headers.get('vary')).toBeNull();
    const html = await callImages('/', accept(chromiumAccept));
    expect(html.response.headers.get('content-type')).toContain('text/html');
  });

  it('answers HEAD with the stored variant’s headers once the source is known, as a GET would be answered', async () => {
    const sync = { IMAGES_AVIF_MODE: 'sync' };
    const bytes = await assetBytes('small/chelsea.jpg');
    // An origin as nginx answers: ETag and Content-Length on GET and HEAD alike.
    const origin = async (request: Request) =>
      new Response(request.method === 'HEAD' ? null : bytes, {
        headers: { 'content-type': 'image/jpeg', etag: '"head-1"', 'content-length': String(bytes.byteLength) },
      });
    const get = await callImages('/head/chelsea.jpg', accept(chromiumAccept), sync, origin);
    expect(get.header?.format).toBe('avif');
    const headRequest = { method: 'HEAD', headers: { accept: chromiumAccept } };
    const head = await callImages('/head/chelsea.jpg', headRequest, sync, origin);
    expect(head.response.headers.get('content-type')).toBe('image/avif');
    expect(head.response.headers.get('content-length')).toBe(String(get.bytes.byteLength));
    expect(head.response.headers.get('etag')).toBe(get.response.headers.get('etag'));
    expect(head.bytes.byteLength).toBe(0);
  });

  it('answers HEAD with the original headers and Vary: Accept', async () => {
    const { response, bytes } = await callImages(image, { method: 'HEAD', headers: { accept: chromiumAccept } });
    expect(response.headers.get('content-type')).toBe('image/jpeg');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(bytes.byteLength).toBe(0);
  });
});

describe('origins that name image types the old way', () => {
  it.each([
    ['image/jpg', 'small/chelsea.jpg'],
    ['image/pjpeg', 'small/chelsea.jpg'],
    ['Image/JPEG; charset=binary', 'small/chelsea.jpg'],
    ['image/x-png', 'small/chelsea.png'],
  ])('negotiates an image sent as %s', async (type, file) => {
    const bytes = await assetBytes(file);
    const origin = async () => new Response(bytes, { headers: { 'content-type': type } });
    const { response, header } = await callImages(`/uploads/${file}`, accept('image/webp'), {}, origin);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(header?.format).toBe('webp');
  });

  it('still passes through bytes that are not the format the type names', async () => {
    const png = await assetBytes('small/chelsea.png');
    const origin = async () => new Response(png, { headers: { 'content-type': 'image/jpg' } });
    const { bytes, note } = await callImages('/uploads/lying.jpg', accept('image/webp'), {}, origin);
    expect(bytes).toEqual(png);
    expect(note).toContain('not a decodable image');
  });
});

describe('through the all-in-one Worker', () => {
  it('negotiates a demo image for Chromium', async () => {
    const response = await exports.default.fetch(new Request(`http://speedkit.test${image}`, accept('image/webp')));
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(readImageHeader(bytes)).toMatchObject({ format: 'webp', width: 96, height: 64 });
  });
});

describe('an image whose full-effort encode is over the work budget (the Speed Page demo hero)', () => {
  it('is still converted, at the first faster encoder setting that fits, instead of served as the JPEG', async () => {
    // The demo article's LCP image (scripts/images-fixtures.mjs makes it as the demo site does): 1600x1395, 2.2 MP,
    // over the 2 MP AVIF cap, progressive with 10 scans.
    const path = '/demo/images/large/hero-1600-progressive.jpg';
    const hero = await assetBytes('large/hero-1600-progressive.jpg');
    const header = readImageHeader(hero);
    const walk = walkJpeg(hero, { maxScans: 100, maxMarkers: 1000 });
    if (!header || !walk.ok) throw new Error('the hero should be a readable JPEG');
    const shape = { source: header, jpegScans: walk.structure.scans, resized: false, output: header };
    expect(withinBudget(estimateWork({ ...shape, target: 'webp' }), defaultConfig.maxWorkMs)).toBe(false);
    const first = await callImages(path, accept(chromiumAccept));
    expect(first.header).toMatchObject({ format: 'webp', width: 1600, height: 1395 });
    expect(first.note).toMatch(/^webp; encoded \(m\d: full effort over budget\)$/);
    expect(first.bytes.byteLength).toBeLessThan(hero.byteLength);
    const second = await callImages(path, accept(chromiumAccept));
    expect(second.note).toBe(first.note.replace('encoded', 'stored'));
    expect(second.bytes).toEqual(first.bytes);
  }, 120_000);
});

describe('a repeat request for a source this isolate has read (same ETag and Content-Length)', () => {
  const sync = { IMAGES_AVIF_MODE: 'sync' };
  /** An origin serving `bytes` under `etag` that counts how often its body is read (nothing is pulled unasked). */
  function countingOrigin(bytes: Uint8Array, etag: string, declaresLength = true) {
    const origin = { reads: 0 };
    const length: Record<string, string> = declaresLength ? { 'content-length': String(bytes.byteLength) } : {};
    const next = async () =>
      new Response(
        new ReadableStream(
          {
            pull(controller) {
              origin.reads++;
              controller.enqueue(bytes);
              controller.close();
            },
          },
          { highWaterMark: 0 },
        ),
        { headers: { 'content-type': 'image/jpeg', etag, ...length } },
      );
    return { origin, next };
  }

  it('serves the stored variant without reading the source again', async () => {
    const { origin, next } = countingOrigin(await assetBytes('small/chelsea.jpg'), '"chelsea-repeat"');
    const first = await callImages(image, accept('image/webp'), sync, next);
    expect(first.note).toBe('webp; encoded');
    const readsAfterFirst = origin.reads;
    const second = await callImages(image, accept('image/webp'), sync, next);
    expect({ note: second.note, reads: origin.reads, same: second.bytes.join() === first.bytes.join() }).toEqual({
      note: 'webp; stored',
      reads: readsAfterFirst,
      same: true,
    });
  });

  it('does so for a source sent without Content-Length too (chunked, or the static assets binding)', async () => {
    const { origin, next } = countingOrigin(await assetBytes('small/chelsea.jpg'), '"chelsea-chunked"', false);
    expect((await callImages(image, accept('image/webp'), sync, next)).note).toBe('webp; encoded');
    const readsAfterFirst = origin.reads;
    const second = await callImages(image, accept('image/webp'), sync, next);
    expect({ note: second.note, reads: origin.reads }).toEqual({ note: 'webp; stored', reads: readsAfterFirst });
  });

  it('reads and converts the source again when its ETag changed', async () => {
    const bytes = await assetBytes('small/chelsea.jpg');
    await callImages(image, accept('image/webp'), sync, countingOrigin(bytes, '"chelsea-old"').next);
    const changed = countingOrigin(bytes, '"chelsea-new"');
    const again = await callImages(image, accept('image/webp'), sync, changed.next);
    expect({ note: again.note, read: changed.origin.reads > 0 }).toEqual({ note: 'webp; encoded', read: true });
  });
});
