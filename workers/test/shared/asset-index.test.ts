import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { assetPath } from '../../src/shared/asset-index';

const call = (path: string) =>
  exports.default.fetch(new Request(`http://speedkit.test${path}`, { redirect: 'manual' }));

describe('assetPath', () => {
  it('asks for a page by its canonical name, so the assets have no redirect to send', () => {
    expect(assetPath('/demo/images.html')).toBe('/demo/images');
    expect(assetPath('/index.html')).toBe('/');
    expect(assetPath('/demo/index.html')).toBe('/demo/');
  });

  it('leaves every other path alone', () => {
    for (const path of ['/', '/demo/', '/demo/images', '/demo/images/coffee.png', '/a.html.js']) {
      expect(assetPath(path)).toBe(path);
    }
  });
});

describe('static pages through the all-in-one Worker', { timeout: 30_000 }, () => {
  it.each(['/demo/images.html', '/baseline.html', '/index.html'])(
    'answers %s with 200, no redirect hop',
    async (path) => {
      const response = await call(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      await response.arrayBuffer();
    },
  );

  it('serves /, /demo/ and extensionless pages as before', async () => {
    for (const path of ['/', '/demo/', '/demo/images']) {
      const response = await call(path);
      expect(response.status, path).toBe(200);
      expect(await response.text(), path).toContain('<main');
    }
  });

  it('serves a favicon at /favicon.ico so browsers get no 404', async () => {
    const response = await call('/favicon.ico');
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it('still answers 404 for a page that does not exist', async () => {
    const response = await call('/no-such-page');
    expect(response.status).toBe(404);
    await response.arrayBuffer();
  });
});
