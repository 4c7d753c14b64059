import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { assetCandidates } from '../../src/shared/asset-index';

const call = (path: string) =>
  exports.default.fetch(new Request(`http://speedkit.test${path}`, { redirect: 'manual' }));

describe('assetCandidates', () => {
  it('maps a folder to its index.html', () => {
    expect(assetCandidates('/')).toEqual(['/index.html']);
    expect(assetCandidates('/demo/')).toEqual(['/demo/index.html']);
  });

  it('tries an extensionless path as is, then as .html', () => {
    expect(assetCandidates('/demo/images')).toEqual(['/demo/images', '/demo/images.html']);
  });

  it('leaves a path with an extension alone', () => {
    expect(assetCandidates('/demo/images.html')).toEqual(['/demo/images.html']);
    expect(assetCandidates('/v1.2/app')).toEqual(['/v1.2/app', '/v1.2/app.html']);
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

  it('serves / and /demo/ from their index pages', async () => {
    for (const path of ['/', '/demo/']) {
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
