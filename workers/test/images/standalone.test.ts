import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import standalone, { originUrl } from '../../src/images/standalone';
import { readImageHeader } from '../../src/shared/image-header/whole-file';
import { assetBytes, clearVariants } from './helpers';

// The real (local) R2 binding stands in for a site's image bucket, under a prefix the variant store never uses.
const bucket = env.VARIANTS as R2Bucket;

async function call(path: string, accept?: string) {
  const ctx = createExecutionContext();
  // The handler's type expects an incoming request's `cf` object, which a test-built Request lacks.
  const request = new Request(`https://images.example${path}`, accept ? { headers: { accept } } : {}) as Request<
    unknown,
    IncomingRequestCfProperties
  >;
  const response = await standalone.fetch(
    request,
    { ...env, IMAGES_SOURCE: bucket, IMAGES_AVIF_MODE: 'sync' } as unknown as Env,
    ctx,
  );
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes };
}

beforeEach(async () => {
  await clearVariants();
  await bucket.put('site/cat.jpg', await assetBytes('small/chelsea.jpg'), {
    httpMetadata: { contentType: 'image/jpeg' },
  });
});

describe('standalone Worker with an R2 bucket as the origin (IMAGES_SOURCE)', () => {
  it('negotiates images read from the bucket', async () => {
    const { response, bytes } = await call('/site/cat.jpg', 'image/avif,image/webp,*/*');
    expect(response.headers.get('content-type')).toBe('image/avif');
    expect(response.headers.get('vary')).toContain('Accept');
    expect(readImageHeader(bytes)).toMatchObject({ format: 'avif', width: 96, height: 64 });
  });

  it('serves the stored object as it is to a client without AVIF/WebP, with its ETag', async () => {
    const { response, bytes } = await call('/site/cat.jpg');
    expect(bytes).toEqual(await assetBytes('small/chelsea.jpg'));
    expect(response.headers.get('etag')).toMatch(/^"[0-9a-f]+"$/);
  });

  it('resizes bucket objects through the URL API', async () => {
    const { bytes } = await call('/cdn-cgi/image/w=48,f=webp/site/cat.jpg');
    expect(readImageHeader(bytes)).toMatchObject({ format: 'webp', width: 48, height: 32 });
  });

  it('answers 404 for a missing object', async () => {
    expect((await call('/site/missing.jpg')).response.status).toBe(404);
  });
});

describe('standalone Worker in front of IMAGES_ORIGIN', () => {
  const origin = 'https://origin.example:8443';

  it.each([
    ['/a/cat.jpg?v=2', 'https://origin.example:8443/a/cat.jpg?v=2'],
    ['/', 'https://origin.example:8443/'],
    // A path starting with two slashes parsed against the origin was another host: the Worker fetched
    // https://evil.example/x.html and served it, a page of the attacker's, under the site's own address.
    ['//evil.example/x.html', 'https://origin.example:8443//evil.example/x.html'],
    ['//evil.example:80/x.html?q=1', 'https://origin.example:8443//evil.example:80/x.html?q=1'],
  ])('fetches %s from %s, never another host', (path, expected) => {
    const url = originUrl(new URL(`https://images.example${path}`), origin);
    expect(url.href).toBe(expected);
    expect(url.origin).toBe(origin);
  });
});
