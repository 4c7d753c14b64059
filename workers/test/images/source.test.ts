import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, type ImagesConfig } from '../../src/images/core/config';
import { fetchSource, locateSource } from '../../src/images/edge/source-fetch';
import { callImages } from './helpers';

const config: ImagesConfig = { ...defaultConfig, allowedOrigins: ['https://images.example'] };
const requestUrl = new URL('http://speedkit.test/cdn-cgi/image/w=10/x.jpg');
const locate = (raw: string) => locateSource(raw, requestUrl, config);
const statusOf = (raw: string) => {
  const result = locate(raw);
  return result.ok ? 200 : result.problem.status;
};

describe('locateSource (SSRF guard)', () => {
  it('resolves relative paths against the own origin', () => {
    const result = locate('demo/a.jpg?v=2');
    expect(result.ok && result.source.url.href).toBe('http://speedkit.test/demo/a.jpg?v=2');
  });

  it('resolves relative paths against IMAGES_ORIGIN when configured', () => {
    const result = locateSource('a.jpg', requestUrl, { ...config, origin: 'https://origin.example' });
    expect(result.ok && result.source.url.href).toBe('https://origin.example/a.jpg');
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data/', 403],
    ['http://localhost:8787/secret.png', 403],
    ['https://evil.example/a.jpg', 403],
    ['https://images.example.evil.example/a.jpg', 403],
    ['https://user:pw@images.example/a.jpg', 400],
    ['file:///etc/passwd', 400],
    ['ftp://images.example/a.jpg', 400],
    ['/\\evil.example/a.jpg', 400],
    ['//evil.example/a.jpg', 400],
    ['cdn-cgi/image/w=1/a.jpg', 400],
    ['', 400],
  ])('refuses %s with %i', (raw, status) => {
    expect(statusOf(raw)).toBe(status);
  });

  it.each(['https://images.example/a.jpg', 'https:/images.example/a.jpg', 'http://speedkit.test/a.jpg'])(
    'allows %s',
    (raw) => {
      expect(statusOf(raw)).toBe(200);
    },
  );
});

/** A stand-in for remote origins (no live network in tests): answers by URL and records what it was sent. */
function remote(routes: Record<string, () => Response>) {
  const seen: Request[] = [];
  const fetcher = async (request: Request) => {
    seen.push(request);
    return routes[request.url]?.() ?? new Response('not found', { status: 404 });
  };
  return { seen, fetcher };
}
const redirect = (location: string) => () => new Response(null, { status: 302, headers: { location } });

describe('fetchSource (redirects re-checked)', () => {
  const start = locate('https://images.example/a.jpg');
  if (!start.ok) throw new Error('setup');

  it('follows a redirect that stays on allowed origins', async () => {
    const { fetcher } = remote({
      'https://images.example/a.jpg': redirect('/b.jpg'),
      'https://images.example/b.jpg': () => new Response('image'),
    });
    const result = await fetchSource(start.source, config, { own: fetcher, network: fetcher }, requestUrl);
    expect(result.ok && result.url.href).toBe('https://images.example/b.jpg');
  });

  it('refuses a redirect to a disallowed origin without fetching it', async () => {
    const { fetcher, seen } = remote({ 'https://images.example/a.jpg': redirect('http://169.254.169.254/') });
    const result = await fetchSource(start.source, config, { own: fetcher, network: fetcher }, requestUrl);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.problem.status).toBe(403);
    expect(seen.map((request) => request.url)).toEqual(['https://images.example/a.jpg']);
  });

  it('gives up after the configured number of redirects', async () => {
    const { fetcher } = remote({
      'https://images.example/a.jpg': redirect('/b.jpg'),
      'https://images.example/b.jpg': redirect('/a.jpg'),
    });
    const result = await fetchSource(start.source, config, { own: fetcher, network: fetcher }, requestUrl);
    expect(!result.ok && result.problem.error).toBe('the source redirected too many times');
  });
});

describe('source requests carry none of the visitor credentials', () => {
  it('drops Cookie and Authorization when fetching the source', async () => {
    const seen: Request[] = [];
    await callImages(
      '/cdn-cgi/image/w=10,f=webp/demo/images/small/chelsea.jpg',
      { headers: { cookie: 'session=secret', authorization: 'Bearer secret' } },
      {},
      (request) => {
        seen.push(request);
        return env.ASSETS.fetch(request);
      },
    );
    expect(seen).toHaveLength(1);
    expect(seen[0]?.headers.get('cookie')).toBeNull();
    expect(seen[0]?.headers.get('authorization')).toBeNull();
  });
});

describe('cookies the origin sets on the Worker own source fetch stay with it', () => {
  it.each([
    ['a variant', 'w=10,f=webp', 'demo/images/small/chelsea.jpg'],
    ['the original, nothing to change', 'f=jpeg', 'demo/images/small/chelsea.jpg'],
    ['the original, untransformable', 'w=10,f=webp', 'demo/images/broken/truncated.jpg'],
  ])('%s carries no Set-Cookie', async (_, options, path) => {
    const { response } = await callImages(`/cdn-cgi/image/${options}/${path}`, {}, {}, async (request) => {
      const served = await env.ASSETS.fetch(request);
      const withCookie = new Response(served.body, served);
      // A session or load-balancer affinity cookie minted for a request that carried none: handed on, it would
      // replace the visitor's own.
      withCookie.headers.set('set-cookie', 'session=anonymous; Path=/');
      return withCookie;
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toBeNull();
  });
});

describe('an origin behind IMAGES_ORIGIN stays behind it', () => {
  const vars = { IMAGES_ORIGIN: 'https://origin.internal' };
  let bytes = new Uint8Array();
  beforeAll(async () => {
    bytes = new Uint8Array(
      await (await env.ASSETS.fetch('http://assets.test/demo/images/small/chelsea.jpg')).arrayBuffer(),
    );
  });
  const jpeg = () => new Response(bytes, { headers: { 'content-type': 'image/jpeg' } });
  const origin = () =>
    remote({
      'https://origin.internal/a.jpg': jpeg,
      'https://origin.internal/moved.jpg': redirect('http://speedkit.test/a.jpg'),
    });

  it('onerror=redirect sends the visitor to the source on the site, not to the origin it is fetched from', async () => {
    const { response } = await callImages(
      '/cdn-cgi/image/w=10,onerror=redirect/missing.jpg?v=1',
      {},
      vars,
      origin().fetcher,
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('http://speedkit.test/missing.jpg?v=1');
  });

  it.each(['/.//evil.example/a.jpg', '/x/..//evil.example/a.jpg', '/%2e//evil.example/a.jpg'])(
    'names %s by a URL on the site (a path the URL parser squashes to //host is no host)',
    (raw) => {
      const located = locateSource(raw, requestUrl, { ...config, origin: 'https://origin.internal' });
      if (located.ok) expect(located.source.publicUrl.origin).toBe('http://speedkit.test');
    },
  );

  it('names a source by the site URL without IMAGES_ORIGIN port or scheme', () => {
    const located = locateSource('a.jpg?v=1', requestUrl, { ...config, origin: 'https://127.0.0.1:8812' });
    expect(located.ok && located.source.publicUrl.href).toBe('http://speedkit.test/a.jpg?v=1');
    expect(located.ok && located.source.url.href).toBe('https://127.0.0.1:8812/a.jpg?v=1');
  });

  it('error details name the source on the site, never the origin address', async () => {
    const { response, bytes } = await callImages('/cdn-cgi/image/w=10/missing.jpg', {}, vars, origin().fetcher);
    expect(response.status).toBe(404);
    const body = new TextDecoder().decode(bytes);
    expect(body).toContain('http://speedkit.test/missing.jpg');
    expect(body).not.toContain('origin.internal');
  });

  it('an absolute source on the site itself is the site own image, fetched from IMAGES_ORIGIN', async () => {
    const { fetcher, seen } = origin();
    const { response, header } = await callImages(
      '/cdn-cgi/image/w=10,f=webp/http://speedkit.test/a.jpg',
      {},
      vars,
      fetcher,
    );
    expect(response.status).toBe(200);
    expect(header?.format).toBe('webp');
    expect(seen.map((request) => request.url)).toEqual(['https://origin.internal/a.jpg']);
  });

  it('so is an origin redirect to the site own absolute URL, and a loop back into /cdn-cgi/ is refused', async () => {
    const moved = await callImages('/cdn-cgi/image/w=10,f=webp/moved.jpg', {}, { ...vars }, origin().fetcher);
    expect(moved.response.status).toBe(200);
    const { response } = await callImages(
      '/cdn-cgi/image/w=10/http://speedkit.test/cdn-cgi/image/w=10/a.jpg',
      {},
      vars,
      origin().fetcher,
    );
    expect(response.status).toBe(400);
  });
});
