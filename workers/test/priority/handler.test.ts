import { describe, expect, it } from 'vitest';
import { LayoutCache } from '../../src/priority/cache';
import { defaultPriorityConfig, type PriorityConfig } from '../../src/priority/config';
import { prioritise } from '../../src/priority/handler';
import { scanImage } from '../../src/priority/scanner';
import { type Fixture, fixtures } from './fixtures';

const fixture = (name: string) => fixtures.find((f) => f.name === name) as Fixture;
const progressive = fixture('hubble_deep_field--cjpeg-progressive.jpg');
const mozjpeg = fixture('astronaut--sharp-mozjpeg-progressive.jpg');

/** A body that hands out `chunkBytes` at a time and records how far the consumer has pulled. */
function countingBody(bytes: Uint8Array, chunkBytes = 1024, stallAfterBytes = Number.POSITIVE_INFINITY) {
  const meter = { pulledBytes: 0, release: () => {} };
  const stalled = new Promise<void>((resolve) => {
    meter.release = resolve;
  });
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (meter.pulledBytes >= stallAfterBytes) await stalled;
      if (meter.pulledBytes >= bytes.length) return controller.close();
      const chunk = bytes.slice(meter.pulledBytes, meter.pulledBytes + chunkBytes);
      meter.pulledBytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { body, meter };
}

function imageResponse(bytes: Uint8Array, headers: Record<string, string> = {}, body?: ReadableStream<Uint8Array>) {
  return new Response(body ?? bytes, {
    headers: { 'content-type': 'image/jpeg', 'content-length': String(bytes.length), ...headers },
  });
}

const get = (path = '/a.jpg', method = 'GET') => new Request(`https://site.test${path}`, { method });
const config = (overrides: Partial<PriorityConfig> = {}) => ({ ...defaultPriorityConfig, ...overrides });
const bytesOf = async (response: Response) => new Uint8Array(await response.arrayBuffer());

describe('prioritise: progressive JPEG', () => {
  it('sends header first, then previews shared, then the rest, at the offsets in the file', async () => {
    const expected = scanImage(progressive.bytes);
    if (expected.kind !== 'done') throw new Error('fixture');
    const { headerEndBytes: h, previewEndBytes: p, goodEndBytes: g } = expected.layout;
    const { response } = await prioritise(get(), imageResponse(progressive.bytes), config(), new LayoutCache(10));
    expect(response.headers.get('cf-priority')).toBe('30/0');
    expect(response.headers.get('cf-priority-change')).toBe(`${h}:20/1, ${p}:15/1, ${g}:10/0`);
    expect(response.headers.get('priority')).toBe('u=3, i');
  });

  it('returns every byte of the body unchanged, with its Content-Length', async () => {
    const { response } = await prioritise(get(), imageResponse(mozjpeg.bytes), config(), new LayoutCache(10));
    expect(response.headers.get('content-length')).toBe(String(mozjpeg.bytes.length));
    expect(await bytesOf(response)).toEqual(mozjpeg.bytes);
  });

  it('reads only up to the good-image point before answering, not the whole file', async () => {
    const { body, meter } = countingBody(progressive.bytes, 1024);
    const { outcome, response } = await prioritise(
      get(),
      imageResponse(progressive.bytes, {}, body),
      config(),
      new LayoutCache(10),
    );
    if (outcome.kind !== 'prioritised') throw new Error(JSON.stringify(outcome));
    const good = outcome.layout.goodEndBytes as number;
    expect(outcome.bufferedBytes).toBeLessThanOrEqual(good + 2 + 1024);
    expect(meter.pulledBytes).toBeLessThan(progressive.bytes.length * 0.6);
    expect(await bytesOf(response)).toEqual(progressive.bytes);
  });

  it('drops the stages it could not reach within maxBufferBytes', async () => {
    const { response, outcome } = await prioritise(
      get(),
      imageResponse(progressive.bytes),
      config({ maxBufferBytes: 16 * 1024 }),
      new LayoutCache(10),
    );
    if (outcome.kind !== 'prioritised') throw new Error(JSON.stringify(outcome));
    const { headerEndBytes: h, previewEndBytes: p } = outcome.layout;
    expect(outcome.layout.goodEndBytes).toBeUndefined();
    expect(response.headers.get('cf-priority-change')).toBe(`${h}:20/1, ${p}:10/0`);
    expect(await bytesOf(response)).toEqual(progressive.bytes);
  });

  it('answers with what it has after maxWaitMs when the origin stalls, and still delivers the rest', async () => {
    const { body, meter } = countingBody(progressive.bytes, 4096, 8192);
    const cache = new LayoutCache(10);
    const slow = config({ maxWaitMs: 50 });
    const { response, outcome } = await prioritise(
      get(),
      imageResponse(progressive.bytes, { etag: '"slow"' }, body),
      slow,
      cache,
    );
    expect(outcome).toMatchObject({ kind: 'prioritised', bufferedBytes: 8192 });
    expect(response.headers.get('cf-priority-change')).toMatch(/^\d+:10\/0$/); // header-first: no preview end yet
    meter.release();
    expect(await bytesOf(response)).toEqual(progressive.bytes);
    // The scan went on over the forwarded bytes: the next request gets every stage without waiting for the origin.
    const again = await prioritise(get(), imageResponse(progressive.bytes, { etag: '"slow"' }), slow, cache);
    expect(again.outcome).toMatchObject({ kind: 'prioritised', cached: true, bufferedBytes: 0 });
    expect(again.response.headers.get('cf-priority-change')).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/0$/);
  });
});

describe('prioritise: other images and the cache', () => {
  it('gives baseline JPEG, PNG, GIF, WebP and AVIF header-first priority, not incremental', async () => {
    for (const name of [
      'coffee--sharp-baseline.jpg',
      'coffee--image.png',
      'coffee--image.gif',
      'coffee--lossy.webp',
      'coffee--image.avif',
    ]) {
      const f = fixture(name);
      const { response, outcome } = await prioritise(get(), imageResponse(f.bytes), config(), new LayoutCache(10));
      if (outcome.kind !== 'prioritised') throw new Error(`${name}: ${JSON.stringify(outcome)}`);
      expect(response.headers.get('cf-priority-change'), name).toBe(`${outcome.layout.headerEndBytes}:10/0`);
      expect(response.headers.get('priority'), name).toBe('u=3');
      expect(await bytesOf(response)).toEqual(f.bytes);
    }
  });

  it('remembers offsets per ETag so a repeat request is not read ahead', async () => {
    const cache = new LayoutCache(10);
    const first = await prioritise(get(), imageResponse(mozjpeg.bytes, { etag: '"v1"' }), config(), cache);
    const again = await prioritise(get(), imageResponse(mozjpeg.bytes, { etag: '"v1"' }), config(), cache);
    expect(again.outcome).toMatchObject({ kind: 'prioritised', cached: true, bufferedBytes: 0 });
    expect(again.response.headers.get('cf-priority-change')).toBe(first.response.headers.get('cf-priority-change'));
    const changed = await prioritise(get(), imageResponse(progressive.bytes, { etag: '"v2"' }), config(), cache);
    expect(changed.outcome).toMatchObject({ kind: 'prioritised', cached: false });
    expect(await bytesOf(again.response)).toEqual(mozjpeg.bytes);
  });

  it('does not reuse offsets across content types that share a URL and an ETag', async () => {
    const cache = new LayoutCache(10);
    const png = fixture('coffee--image.png');
    await prioritise(get(), imageResponse(mozjpeg.bytes, { etag: '"same"' }), config(), cache);
    const other = await prioritise(
      get(),
      imageResponse(png.bytes, { etag: '"same"', 'content-type': 'image/png' }),
      config(),
      cache,
    );
    expect(other.outcome).toMatchObject({ kind: 'prioritised', cached: false, layout: { format: 'png' } });
  });

  it('evicts the least recently used offsets beyond its size', () => {
    const cache = new LayoutCache(2);
    cache.set('a', 'unusable');
    cache.set('b', 'unusable');
    cache.get('a');
    cache.set('c', 'unusable');
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual(['unusable', undefined, 'unusable']);
  });
});

describe('prioritise: passes through untouched', () => {
  const garbage = Uint8Array.from({ length: 5000 }, (_, i) => (i * 7919) % 251);

  it('an image/jpeg body that is not a JPEG, byte for byte and without headers', async () => {
    const { response, outcome } = await prioritise(get(), imageResponse(garbage), config(), new LayoutCache(10));
    expect(outcome).toMatchObject({ kind: 'unusable', reason: 'not a JPEG, PNG, GIF, WebP or AVIF file' });
    expect(response.headers.has('cf-priority')).toBe(false);
    expect(await bytesOf(response)).toEqual(garbage);
  });

  it('a truncated JPEG that ends inside its header', async () => {
    const cut = progressive.bytes.slice(0, 100);
    const { response, outcome } = await prioritise(get(), imageResponse(cut), config(), new LayoutCache(10));
    expect(outcome.kind).toBe('unusable');
    expect(await bytesOf(response)).toEqual(cut);
  });

  it.each([
    ['HEAD requests', get('/a.jpg', 'HEAD'), {}, 'method HEAD'],
    ['non-images', get(), { 'content-type': 'text/html' }, 'not an image'],
    ['compressed bodies', get(), { 'content-encoding': 'gzip' }, 'content-encoding gzip'],
    ['responses the origin already prioritised', get(), { 'cf-priority': '50/0' }, 'origin already set cf-priority'],
    ['responses with the origin’s own RFC 9218 Priority', get(), { priority: 'u=1' }, 'origin already set Priority'],
  ] as const)('%s', async (_, request, headers, reason) => {
    const original = imageResponse(mozjpeg.bytes, headers);
    const { response, outcome } = await prioritise(request, original, config(), new LayoutCache(10));
    expect(outcome).toEqual({ kind: 'skipped', reason });
    expect(response).toBe(original);
  });

  it('partial content (206), whose offsets would not be the file offsets', async () => {
    const original = new Response(mozjpeg.bytes.slice(0, 100), {
      status: 206,
      headers: { 'content-type': 'image/jpeg' },
    });
    expect((await prioritise(get(), original, config(), new LayoutCache(10))).response).toBe(original);
  });
});

describe('prioritise: images the browser asked for urgently', () => {
  const urgentGet = (priority: string) => new Request('https://site.test/hero.jpg', { headers: { priority } });

  it('sends an image the page named (fetchpriority=high, u≤1) at once, reading nothing ahead, bytes unchanged', async () => {
    const { body, meter } = countingBody(progressive.bytes, 1024);
    const { outcome, response } = await prioritise(
      urgentGet('u=1, i'),
      imageResponse(progressive.bytes, {}, body),
      config(),
      new LayoutCache(10),
    );
    expect(outcome).toEqual({ kind: 'urgent', urgency: 1 });
    expect(meter.pulledBytes).toBeLessThanOrEqual(2 * 1024); // at most what the stream pulls on its own
    expect(response.headers.get('cf-priority')).toBe('30/0');
    expect(response.headers.has('cf-priority-change')).toBe(false);
    expect(response.headers.get('priority')).toBe('u=1, i');
    expect(response.headers.get('content-length')).toBe(String(progressive.bytes.length));
    expect(await bytesOf(response)).toEqual(progressive.bytes);
  });

  it('sends an urgent image (u=2) with a small preview preview-first, reading ahead only to the preview', async () => {
    const thumb = fixture('astronaut--cjpeg-progressive.jpg'); // 44 KB, its preview a few KB
    const full = scanImage(thumb.bytes);
    if (full.kind !== 'done' || full.layout.previewEndBytes === undefined || full.layout.goodEndBytes === undefined) {
      throw new Error('fixture must be a progressive JPEG with a preview and a good point');
    }
    const { previewEndBytes, goodEndBytes } = full.layout;
    const { body, meter } = countingBody(thumb.bytes, 512);
    const cache = new LayoutCache(10);
    const { outcome, response } = await prioritise(
      urgentGet('u=2, i'),
      imageResponse(thumb.bytes, { etag: '"v1"' }, body),
      config(),
      cache,
    );
    expect(outcome.kind).toBe('prioritised');
    expect(response.headers.get('cf-priority')).toBe('31/0');
    expect(response.headers.get('cf-priority-change')).toBe(`${previewEndBytes}:30/0`);
    expect(response.headers.get('priority')).toBe('u=2, i');
    // Held back: the preview and the chunks it ends in, never up to the good point.
    expect(meter.pulledBytes).toBeLessThan(previewEndBytes + 2 * 512);
    expect(meter.pulledBytes).toBeLessThan(goodEndBytes);
    expect(await bytesOf(response)).toEqual(thumb.bytes);

    // A Low request for the same file does not settle for that partial layout: it finds the good point.
    const low = await prioritise(urgentGet('i'), imageResponse(thumb.bytes, { etag: '"v1"' }), config(), cache);
    expect(low.outcome).toMatchObject({ kind: 'prioritised', cached: false });
    expect(low.response.headers.get('cf-priority-change')).toBe(
      `${full.layout.headerEndBytes}:20/1, ${previewEndBytes}:15/1, ${goodEndBytes}:10/0`,
    );
    // And the urgent request after it uses the full layout from the cache without reading ahead.
    const again = await prioritise(urgentGet('u=2, i'), imageResponse(thumb.bytes, { etag: '"v1"' }), config(), cache);
    expect(again.outcome).toMatchObject({ kind: 'prioritised', cached: true });
    expect(again.response.headers.get('cf-priority-change')).toBe(`${previewEndBytes}:30/0`);
  });

  it('sends an urgent image whose preview is large (the likely LCP image) whole, reading at most the budget', async () => {
    const full = scanImage(progressive.bytes);
    if (full.kind !== 'done' || full.layout.previewEndBytes === undefined) throw new Error('fixture: progressive');
    // A budget under this file's preview (9.9 KB) stands for a hero's 25 KB preview under the default 16 KiB.
    const tight = config({ previewFirstMaxBytes: 4096 });
    expect(full.layout.previewEndBytes).toBeGreaterThan(tight.previewFirstMaxBytes);
    const { body, meter } = countingBody(progressive.bytes, 1024);
    const cache = new LayoutCache(10);
    const { outcome, response } = await prioritise(
      urgentGet('u=2, i'),
      imageResponse(progressive.bytes, { etag: '"big"' }, body),
      tight,
      cache,
    );
    expect(outcome.kind === 'urgent' || outcome.kind === 'prioritised').toBe(true);
    expect(meter.pulledBytes).toBeLessThanOrEqual(tight.previewFirstMaxBytes + 2 * 1024);
    expect(response.headers.get('cf-priority')).toBe('30/0');
    expect(response.headers.has('cf-priority-change')).toBe(false);
    expect(response.headers.get('priority')).toBe('u=2, i');
    expect(await bytesOf(response)).toEqual(progressive.bytes);
    // The next urgent request for the same bytes goes whole at once: nothing read ahead, nothing held back.
    const repeat = countingBody(progressive.bytes, 1024);
    const again = await prioritise(
      urgentGet('u=2, i'),
      imageResponse(progressive.bytes, { etag: '"big"' }, repeat.body),
      tight,
      cache,
    );
    expect(again.outcome).toEqual({ kind: 'urgent', urgency: 2 });
    expect(repeat.meter.pulledBytes).toBeLessThanOrEqual(1024); // the stream's own first pull, nothing awaited
    expect(again.response.headers.get('cf-priority')).toBe('30/0');
    expect(await bytesOf(again.response)).toEqual(progressive.bytes);
    // What that cut-short read learnt is not a layout: a Low request still finds every stage.
    const low = await prioritise(urgentGet('i'), imageResponse(progressive.bytes, { etag: '"big"' }), tight, cache);
    expect(low.outcome).toMatchObject({ kind: 'prioritised', cached: false });
    expect(low.response.headers.get('cf-priority-change')).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/0$/);
  });

  it('sends a small urgent image without a preview (baseline JPEG, PNG) whole', async () => {
    const baseline = fixture('astronaut--sharp-baseline.jpg');
    const { outcome, response } = await prioritise(
      urgentGet('u=2'),
      imageResponse(baseline.bytes),
      config(),
      new LayoutCache(10),
    );
    expect(outcome.kind).toBe('prioritised');
    expect(response.headers.get('cf-priority')).toBe('30/0');
    expect(response.headers.has('cf-priority-change')).toBe(false);
    expect(await bytesOf(response)).toEqual(baseline.bytes);
  });

  it('sends every urgent image whole, reading nothing ahead, with PRIORITY_PREVIEW_FIRST_MAX_BYTES=0', async () => {
    const thumb = fixture('astronaut--cjpeg-progressive.jpg');
    const { outcome, response } = await prioritise(
      urgentGet('u=2, i'),
      imageResponse(thumb.bytes),
      config({ previewFirstMaxBytes: 0 }),
      new LayoutCache(10),
    );
    expect(outcome).toEqual({ kind: 'urgent', urgency: 2 });
    expect(response.headers.has('cf-priority-change')).toBe(false);
  });

  it('stages the same file when the browser marked it Low, and when PRIORITY_URGENT_MAX_URGENCY is off', async () => {
    const low = await prioritise(urgentGet('i'), imageResponse(progressive.bytes), config(), new LayoutCache(10));
    expect(low.outcome.kind).toBe('prioritised');
    expect(low.response.headers.get('cf-priority-change')).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/0$/);
    const off = await prioritise(
      urgentGet('u=0'),
      imageResponse(progressive.bytes),
      config({ urgentMaxUrgency: -1 }),
      new LayoutCache(10),
    );
    expect(off.outcome.kind).toBe('prioritised');
    expect(off.response.headers.get('priority')).toBe('u=0, i');
  });

  it('still leaves alone what it never touches (HEAD, non-images) even when urgent', async () => {
    const head = new Request('https://site.test/hero.jpg', { method: 'HEAD', headers: { priority: 'u=0' } });
    const result = await prioritise(head, imageResponse(progressive.bytes), config(), new LayoutCache(10));
    expect(result.outcome.kind).toBe('skipped');
    expect(result.response.headers.has('cf-priority')).toBe(false);
  });
});

describe('prioritise: origins that misbehave', () => {
  /** A body that sends `bytes`, then fails as a reset connection does. */
  const failingBody = (bytes: Uint8Array) => {
    let sent = false;
    return new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(new Error('Network connection lost.'));
        sent = true;
        controller.enqueue(bytes);
      },
    });
  };

  it('sends what arrived and then the same failure when the origin’s body breaks during the read ahead', async () => {
    const first = progressive.bytes.slice(0, 3000);
    const { response, outcome } = await prioritise(
      get(),
      imageResponse(progressive.bytes, { etag: '"r"' }, failingBody(first)),
      config(),
      new LayoutCache(10),
    );
    expect(outcome.kind).toBe('unusable');
    expect(response.status).toBe(200);
    expect(response.headers.has('cf-priority')).toBe(false);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const received: number[] = [];
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received.push(...value);
        }
      })(),
    ).rejects.toThrow();
    expect(Uint8Array.from(received)).toEqual(first);
  });

  it('does not let one cut transfer without a length stand for the file', async () => {
    const cache = new LayoutCache(10);
    const chunked = (bytes: Uint8Array, etag: string) =>
      new Response(new Blob([bytes]).stream(), { headers: { 'content-type': 'image/jpeg', etag } });
    for (const cutBytes of [150, 2000]) {
      const etag = `"cut-${cutBytes}"`;
      const cut = await prioritise(get(), chunked(progressive.bytes.slice(0, cutBytes), etag), config(), cache);
      expect(cut.outcome.kind === 'prioritised' ? cut.outcome.layout.previewEndBytes : undefined).toBeUndefined();
      const whole = await prioritise(get(), chunked(progressive.bytes, etag), config(), cache);
      expect(whole.outcome, `after a cut at ${cutBytes} bytes`).toMatchObject({ kind: 'prioritised', cached: false });
      expect(whole.response.headers.get('cf-priority-change')).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/0$/);
    }
    // A complete body whose Content-Length confirms it ended is remembered as before.
    const baseline = fixture('coffee--sharp-baseline.jpg');
    await prioritise(get(), imageResponse(baseline.bytes, { etag: '"b"' }), config(), cache);
    const again = await prioritise(get(), imageResponse(baseline.bytes, { etag: '"b"' }), config(), cache);
    expect(again.outcome).toMatchObject({ kind: 'prioritised', cached: true });
  });

  it('keeps a Content-Length the origin repeated, as one length', async () => {
    const original = imageResponse(mozjpeg.bytes, {
      'content-length': `${mozjpeg.bytes.length}, ${mozjpeg.bytes.length}`,
    });
    const { response } = await prioritise(get(), original, config(), new LayoutCache(10));
    expect(response.headers.get('content-length')).toBe(String(mozjpeg.bytes.length));
    expect(await bytesOf(response)).toEqual(mozjpeg.bytes);
  });

  it('answers as soon as a small header is complete, not at the deadline, when the origin pauses', async () => {
    const gif = fixture('coffee--image.gif');
    const full = scanImage(gif.bytes);
    if (full.kind !== 'done') throw new Error('fixture: gif');
    // The header ends inside a small second chunk (150 bytes), then the origin stalls: only a re-read on that chunk
    // can answer.
    const firstChunkBytes = full.layout.headerEndBytes - 100;
    expect(firstChunkBytes).toBeGreaterThan(16);
    const meter = { release: () => {} };
    const stalled = new Promise<void>((resolve) => {
      meter.release = resolve;
    });
    const chunks = [gif.bytes.slice(0, firstChunkBytes), gif.bytes.slice(firstChunkBytes, firstChunkBytes + 150)];
    let sentBytes = firstChunkBytes + 150;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = chunks.shift();
        if (next) return controller.enqueue(next);
        await stalled;
        if (sentBytes < gif.bytes.length) controller.enqueue(gif.bytes.slice(sentBytes));
        sentBytes = gif.bytes.length;
        controller.close();
      },
    });
    const cache = new LayoutCache(10);
    const started = performance.now();
    const { outcome, response } = await prioritise(
      get(),
      imageResponse(gif.bytes, { 'content-type': 'image/gif', etag: '"g"' }, body),
      config({ maxWaitMs: 5000 }),
      cache,
    );
    expect(outcome).toMatchObject({ kind: 'prioritised', layout: { headerEndBytes: full.layout.headerEndBytes } });
    expect(performance.now() - started).toBeLessThan(2500);
    meter.release();
    expect(await bytesOf(response)).toEqual(gif.bytes);
  });
});
