import { beforeEach, describe, expect, it } from 'vitest';
import { decode } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { assetBytes, callImages, chromiumAccept, clearVariants } from './helpers';
import { rgbaPng } from './png-fixture';

const small = 'demo/images/small/chelsea.jpg'; // 96 x 64
const api = (options: string, source = small, init: RequestInit = {}) =>
  callImages(`/cdn-cgi/image/${options}/${source}`, init);
const errorOf = async (options: string, source = small) => {
  const { response, bytes } = await api(options, source);
  return { status: response.status, body: JSON.parse(new TextDecoder().decode(bytes)) };
};

beforeEach(clearVariants);

describe('/cdn-cgi/image/ resizing', () => {
  it.each([
    ['width=48', 48, 32],
    ['height=16', 24, 16],
    ['w=48,h=48,fit=scale-down', 48, 32],
    ['w=200,fit=scale-down', 96, 64],
    ['w=192,fit=contain', 192, 128],
    ['w=40,h=40,fit=cover', 40, 40],
    ['w=40,h=200,fit=crop', 40, 64],
    ['w=60,h=60,fit=pad', 60, 60],
    ['w=24,dpr=2', 48, 32],
    ['width=auto', 96, 64],
  ])('%s gives %ix%i', async (options, width, height) => {
    const { response, header } = await api(`${options},f=webp`);
    expect(response.status).toBe(200);
    expect(header).toMatchObject({ format: 'webp', width, height });
  });

  it('pads with transparency in formats that have alpha', async () => {
    const { bytes } = await api('w=60,h=60,fit=pad,f=png');
    await ensureCodecs();
    const pixels = await decode(bytes, 'png', 0);
    expect(pixels.data[3]).toBe(0); // top-left pixel is padding
    expect(pixels.data[(30 * 60 + 30) * 4 + 3]).toBe(255); // centre is the photo
  });

  it.each([
    ['avif', 'image/avif'],
    ['webp', 'image/webp'],
    ['jpeg', 'image/jpeg'],
    ['png', 'image/png'],
  ])('format=%s encodes %s', async (format, type) => {
    const { response, header } = await api(`w=32,format=${format}`);
    expect(response.headers.get('content-type')).toBe(type);
    expect(header).toMatchObject({ width: 32, height: 21 });
  });

  it('format=auto serves the original when the conversion is not smaller, an explicit format never does', async () => {
    const auto = await api('f=auto', 'demo/images/small/coffee-q5.jpg', { headers: { accept: 'image/webp' } });
    expect(auto.bytes).toEqual(await assetBytes('small/coffee-q5.jpg'));
    const explicit = await api('f=png', 'demo/images/small/coffee-q5.jpg');
    expect(explicit.header).toMatchObject({ format: 'png', width: 96, height: 64 });
  });

  it('an explicit format is encoded even after format=auto found that format not smaller (one key, one output)', async () => {
    const source = 'demo/images/small/coffee-q5.jpg'; // 463 B: WebP comes out larger
    const auto = await api('f=auto', source, { headers: { accept: 'image/webp' } });
    expect(auto.header?.format).toBe('jpeg');
    const explicit = await api('f=webp', source);
    expect(explicit.header).toMatchObject({ format: 'webp', width: 96, height: 64 });
    expect(explicit.response.headers.get('content-type')).toBe('image/webp');
    // The stored, larger WebP does not reach format=auto clients: the original is still their better answer.
    const again = await api('f=auto', source, { headers: { accept: 'image/webp' } });
    expect(again.bytes).toEqual(await assetBytes('small/coffee-q5.jpg'));
    expect(again.response.headers.get('vary')).toContain('Accept');
  });

  it('answers If-None-Match with 304 for an original served in place of a variant, as for a variant', async () => {
    const source = 'demo/images/small/coffee-q5.jpg';
    const first = await api('f=auto', source, { headers: { accept: 'image/webp' } });
    const etag = first.response.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await api('f=auto', source, { headers: { accept: 'image/webp', 'if-none-match': etag } });
    expect(again.response.status).toBe(304);
    expect(again.bytes.byteLength).toBe(0);
    const variant = await api('w=32,f=webp');
    const variantEtag = variant.response.headers.get('etag') ?? '';
    expect((await api('w=32,f=webp', small, { headers: { 'if-none-match': variantEtag } })).response.status).toBe(304);
  });

  it('format=baseline-jpeg writes a sequential JPEG, jpeg a progressive one', async () => {
    const baseline = (await api('w=32,f=baseline-jpeg')).bytes;
    const progressive = (await api('w=32,f=jpeg')).bytes;
    const sof = (bytes: Uint8Array) =>
      bytes.findIndex((byte, index) => byte === 0xff && (bytes[index + 1] === 0xc0 || bytes[index + 1] === 0xc2));
    expect(baseline[sof(baseline) + 1]).toBe(0xc0);
    expect(progressive[sof(progressive) + 1]).toBe(0xc2);
  });

  it('format=auto picks AVIF for Chromium, the source format without Accept, and varies on Accept', async () => {
    const chromium = await api('w=32,f=auto', small, { headers: { accept: chromiumAccept } });
    expect(chromium.header?.format).toBe('avif');
    expect(chromium.response.headers.get('vary')).toContain('Accept');
    const plain = await api('w=32,f=auto');
    expect(plain.header?.format).toBe('jpeg');
    expect(plain.response.headers.get('vary')).toContain('Accept');
  });

  it('keeps AVIF within its megapixel limit: format=auto and format=avif fall back to WebP (Cloudflare: "AVIF if possible, with WebP as a fallback")', async () => {
    const limit = { IMAGES_MAX_AVIF_MEGAPIXELS: '0.001' }; // 1000 px: 32x21 fits, 64x43 does not
    const path = (options: string) => `/cdn-cgi/image/${options}/${small}`;
    const auto = await callImages(path('w=64,f=auto'), { headers: { accept: chromiumAccept } }, limit);
    expect(auto.header?.format).toBe('webp');
    const explicit = await callImages(path('w=64,f=avif'), {}, limit);
    expect(explicit.response.status).toBe(200);
    expect(explicit.header).toMatchObject({ format: 'webp', width: 64 });
    expect(explicit.response.headers.get('content-type')).toBe('image/webp');
    expect((await callImages(path('w=32,f=avif'), {}, limit)).header?.format).toBe('avif');
  });

  it('keeps working after a codec is swapped for a fresh instance (images over 0.5 MP)', async () => {
    const hubble = 'demo/images/hubble_deep_field.jpg'; // 1000 x 872 = 0.87 MP
    const first = await api('q=80,f=webp', hubble);
    const second = await api('q=81,f=webp', hubble);
    expect(first.header).toMatchObject({ format: 'webp', width: 1000, height: 872 });
    expect(second.header).toMatchObject({ format: 'webp', width: 1000, height: 872 });
  });

  it('takes Cloudflare perceptual quality names: q=low is smaller than quality=high, and a 200', async () => {
    const low = await api('w=96,q=low,f=webp');
    const high = await api('w=96,quality=high,f=webp');
    expect(low.response.status).toBe(200);
    expect(high.header).toMatchObject({ format: 'webp', width: 96 });
    expect(low.bytes.byteLength).toBeLessThan(high.bytes.byteLength);
  });

  it('quality changes the bytes', async () => {
    const low = (await api('w=96,q=10,f=webp')).bytes.byteLength;
    const high = (await api('w=96,q=95,f=webp')).bytes.byteLength;
    expect(low).toBeLessThan(high);
  });

  it('two identical requests at once share one encode: the second neither waits for a slot nor encodes again', async () => {
    // A 1 ms wait for a slot: a second encode of its own would be refused with a 503 while the first holds it.
    const vars = { IMAGES_MAX_CONCURRENT_TRANSFORMS: '1', IMAGES_QUEUE_WAIT_MS: '1' };
    const path = `/cdn-cgi/image/w=50,f=webp/${small}`;
    const [first, second] = await Promise.all([callImages(path, {}, vars), callImages(path, {}, vars)]);
    expect([first.response.status, second.response.status]).toEqual([200, 200]);
    expect(second.bytes).toEqual(first.bytes);
  });

  it('stores the variant in R2 and serves it from there next time', async () => {
    expect((await api('w=40,f=webp')).note).toBe('webp; encoded');
    expect((await api('w=40,f=webp')).note).toBe('webp; stored');
  });

  it('format=json returns the source metadata without decoding', async () => {
    const { response, bytes } = await api('w=100,f=json', 'demo/images/chelsea.jpg');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(new TextDecoder().decode(bytes))).toEqual({
      width: 451,
      height: 300,
      format: 'image/jpeg',
      bytes: (await assetBytes('chelsea.jpg')).byteLength,
      animated: false,
      output: { width: 100, height: 67 },
    });
  });

  it('metadata=keep with nothing else to do serves the original bytes (EXIF included)', async () => {
    const { bytes } = await api('metadata=keep', 'demo/images/small/chelsea-exif.jpg');
    expect(bytes).toEqual(await assetBytes('small/chelsea-exif.jpg'));
  });

  it('decodes AVIF sources (made by another encoder, libheif)', async () => {
    const { header } = await api('w=48,f=webp', 'demo/images/small/chelsea.avif');
    expect(header).toMatchObject({ format: 'webp', width: 48, height: 32 });
  });

  it('flattens padding onto white for JPEG, which has no alpha', async () => {
    const { bytes } = await api('w=60,h=60,fit=pad,f=jpeg');
    await ensureCodecs();
    const pixels = await decode(bytes, 'jpeg', 0);
    expect(Array.from(pixels.data.subarray(0, 4)).every((value) => value > 245)).toBe(true);
  });

  it('fit=contain past IMAGES_MAX_OUTPUT_MEGAPIXELS is the largest size within it, not a 400 (Cloudflare srcset example)', async () => {
    // Cloudflare's responsive-images page offers `fit=contain,width=2560` in a srcset: on a source smaller than that,
    // a wide screen picked it and got a 400, a broken image. An exact box (fit=pad, fit=cover) stays a 400.
    const limit = { IMAGES_MAX_OUTPUT_MEGAPIXELS: '0.5' };
    const path = (options: string) => `/cdn-cgi/image/${options}/${small}`;
    const contain = await callImages(path('fit=contain,width=2560,f=webp'), {}, limit);
    expect(contain.response.status).toBe(200);
    const { width = 0, height = 0 } = contain.header ?? {};
    expect(width * height).toBeLessThanOrEqual(500_000);
    expect(width * height).toBeGreaterThan(490_000);
    expect(Math.abs(width / height - 96 / 64)).toBeLessThan(0.01);
    const described = await callImages(path('fit=contain,width=2560,f=json'), {}, limit);
    expect(JSON.parse(new TextDecoder().decode(described.bytes)).output).toEqual({ width, height });
    expect((await callImages(path('fit=pad,width=2560,height=1600'), {}, limit)).response.status).toBe(400);
  });

  it('pads with background= and puts it under transparent pixels, in every format (Cloudflare background)', async () => {
    await ensureCodecs();
    const pad = await api('w=60,h=60,fit=pad,background=%23ff0000,f=jpeg');
    const padded = await decode(pad.bytes, 'jpeg', 0);
    expect(Array.from(padded.data.subarray(0, 3)).map((value) => Math.round(value / 16))).toEqual([16, 0, 0]);
    // Left half transparent, right half opaque blue; under a background the transparent half takes its colour.
    const halfClear = await rgbaPng(40, 20, (x) => (x < 20 ? [255, 0, 0, 0] : [0, 0, 255, 255]));
    const origin = async () => new Response(halfClear, { headers: { 'content-type': 'image/png' } });
    for (const [background, rgb] of [
      ['yellow', [255, 255, 0]],
      ['rgb%280%2C128%2C0%29', [0, 128, 0]],
    ] as const) {
      const webp = await callImages(`/cdn-cgi/image/background=${background},f=webp/a.png`, {}, {}, origin);
      const pixels = await decode(webp.bytes, 'webp', 0);
      expect(pixels.data[3]).toBe(255);
      for (const [channel, value] of rgb.entries())
        expect(Math.abs((pixels.data[channel] ?? 0) - value)).toBeLessThan(8);
    }
    // Nothing else asked: the background is still a change to make, not the original as it was.
    const png = await callImages('/cdn-cgi/image/background=white/a.png', {}, {}, origin);
    expect(png.note).toBe('png; encoded');
    expect(Array.from((await decode(png.bytes, 'png', 0)).data.subarray(0, 4))).toEqual([255, 255, 255, 255]);
  });

  it('answers HEAD with headers only', async () => {
    const { response, bytes } = await api('w=32,f=webp', small, { method: 'HEAD' });
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(bytes.byteLength).toBe(0);
  });
});

describe('/cdn-cgi/image/ misuse answers 4xx JSON naming the problem', () => {
  it.each([
    ['width=abc', 'width'],
    ['w=0', 'w'],
    ['fit=stretch', 'fit'],
    ['quality=500', 'quality'],
    ['format=bmp', 'format'],
    ['dpr=9', 'dpr'],
    ['blur=3', 'blur'],
    ['width=99999', 'width'],
  ])('%s -> 400 naming %s', async (options, option) => {
    const { status, body } = await errorOf(options);
    expect(status).toBe(400);
    expect(body.detail.option).toBe(option);
    expect(body.error).toContain(option);
  });

  it('broken percent-encoding in the options is a 400, not a crash', async () => {
    const { response } = await callImages('/cdn-cgi/image/w=%E0%A4%A/demo/images/small/chelsea.jpg');
    expect(response.status).toBe(400);
  });

  it('an absolute source off the allow-list is a 403 before anything is fetched', async () => {
    const fetched: string[] = [];
    const { response, bytes } = await callImages(
      '/cdn-cgi/image/w=10/http://169.254.169.254/latest/meta-data/',
      {},
      { IMAGES_ALLOWED_ORIGINS: 'https://images.example' },
      async (request) => {
        fetched.push(request.url);
        return new Response('secret');
      },
    );
    expect(response.status).toBe(403);
    expect(fetched).toEqual([]);
    // Names the setting, never its contents (hosts the site owner may keep private).
    const body = new TextDecoder().decode(bytes);
    expect(body).toContain('IMAGES_ALLOWED_ORIGINS');
    expect(body).not.toContain('images.example');
  });

  it('a missing source is a 400', async () => {
    const { response } = await callImages('/cdn-cgi/image/w=10');
    expect(response.status).toBe(400);
  });

  it('POST is a 405', async () => {
    const { response } = await api('w=10', small, { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
  });

  it('a missing source image is the origin 404 as JSON, or a redirect to it with onerror=redirect', async () => {
    expect((await errorOf('w=10', 'demo/images/nope.jpg')).status).toBe(404);
    const { response } = await api('w=10,onerror=redirect', 'demo/images/nope.jpg');
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://speedkit.test/demo/images/nope.jpg');
  });

  it.each([
    ['an option this Worker does not implement', 'rotate=90,onerror=redirect'],
    ['an exact box over the output cap', 'w=4000,h=4000,fit=pad,onerror=redirect'],
    ['a transform over the work budget', 'w=4000,fit=contain,f=png,onerror=redirect'],
  ])('onerror=redirect covers %s: a 302 to the source, not a 400', async (_, options) => {
    const { response } = await callImages(`/cdn-cgi/image/${options}/${small}`, {}, { IMAGES_MAX_WORK_MS: '50' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(`http://speedkit.test/${small}`);
  });

  it('onerror=redirect never redirects off the allow-list, whatever else is wrong', async () => {
    const { response } = await callImages('/cdn-cgi/image/rotate=90,onerror=redirect/https://evil.example/a.jpg');
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
  });

  it('format=json on a non-image is a 415', async () => {
    expect((await errorOf('f=json', 'demo/images/broken/not-an-image.png')).status).toBe(415);
  });

  it.each(['broken/not-an-image.png', 'broken/garbage.jpg'])(
    'a source that is not an image (%s) is a 415 JSON, never the document',
    async (path) => {
      const { status, body } = await errorOf('w=10,f=webp', `demo/images/${path}`);
      expect(status).toBe(415);
      expect(body.error).toMatch(/not a JPEG, PNG, GIF, WebP or AVIF image/);
    },
  );
});

describe('/cdn-cgi/image/ with sources it cannot transform', () => {
  it.each([
    ['broken/truncated.jpg', 'truncated'],
    ['broken/bomb.png', 'over 3 MP'],
    ['broken/animated.gif', 'animated'],
  ])('serves %s as it is (%s)', async (path, reason) => {
    const { response, bytes, note } = await api('w=10,f=webp', `demo/images/${path}`);
    expect(response.status).toBe(200);
    expect(bytes).toEqual(await assetBytes(path));
    expect(note).toContain(reason);
  });

  it('serves a source over IMAGES_MAX_INPUT_BYTES as it is', async () => {
    const { bytes, note } = await callImages(
      `/cdn-cgi/image/w=10,f=webp/${small}`,
      {},
      { IMAGES_MAX_INPUT_BYTES: '500' },
    );
    expect(bytes).toEqual(await assetBytes('small/chelsea.jpg'));
    expect(note).toContain('over 500 bytes');
  });

  it('format=json on a source over IMAGES_MAX_INPUT_BYTES answers JSON saying so, never the image bytes', async () => {
    const { response, bytes } = await callImages(
      `/cdn-cgi/image/f=json/${small}`,
      {},
      { IMAGES_MAX_INPUT_BYTES: '500' },
    );
    expect(response.status).toBe(413);
    expect(response.headers.get('content-type')).toContain('application/json');
    const body = JSON.parse(new TextDecoder().decode(bytes));
    expect(body.detail).toMatchObject({ maxInputBytes: 500, format: 'image/jpeg' });
  });

  it('redirects to the source instead with onerror=redirect', async () => {
    const { response } = await api('w=10,onerror=redirect', 'demo/images/broken/truncated.jpg');
    expect(response.status).toBe(302);
  });
});
