import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { binastMiddleware } from '../../src/binast/middleware';
import { etagMatches } from '../../src/shared/conditional';
import { binastAccept, clearVariants } from './helpers';

const scriptEtag = '"script-v1"';
const lastModified = 'Tue, 24 Nov 2026 01:00:00 GMT';
const later = 'Tue, 24 Nov 2026 02:00:00 GMT';

/** An origin that honours If-None-Match and If-Modified-Since the way the static assets and most servers do. */
async function revalidatingOrigin(request: Request): Promise<Response> {
  const headers = { etag: scriptEtag, 'last-modified': lastModified };
  const since = Date.parse(request.headers.get('if-modified-since') ?? '');
  if (request.headers.get('if-none-match') === scriptEtag || since >= Date.parse(lastModified)) {
    return new Response(null, { status: 304, headers });
  }
  return new Response('var answer = 6 * 7;', { headers: { 'content-type': 'text/javascript', ...headers } });
}

async function call(headers: Record<string, string>) {
  const ctx = createExecutionContext();
  const request = new Request('http://speedkit.test/app.js', { headers });
  const response = await binastMiddleware(request, env, ctx, revalidatingOrigin);
  await response.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return response;
}

beforeEach(clearVariants);

describe('conditional requests for a URL with a JavaScript and a BinaryAST representation', () => {
  it('serves BinaryAST to a client revalidating its cached JavaScript, instead of passing the 304 through', async () => {
    await call({ accept: binastAccept });
    const response = await call({ accept: binastAccept, 'if-none-match': scriptEtag });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/javascript-binast');
  });

  it('answers 304 when the client already holds the BinaryAST representation', async () => {
    await call({ accept: binastAccept });
    const binastEtag = (await call({ accept: binastAccept })).headers.get('etag');
    expect(binastEtag).toMatch(/-binast"$/);
    const response = await call({ accept: binastAccept, 'if-none-match': binastEtag ?? '' });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(binastEtag);
    expect(response.headers.get('vary')).toBe('Accept');
  });

  it('still answers 304 for a current JavaScript copy while the encoding is not ready', async () => {
    const response = await call({ accept: binastAccept, 'if-none-match': scriptEtag });
    expect(response.status).toBe(304);
    expect(response.headers.get('etag')).toBe(scriptEtag);
  });

  it('serves BinaryAST to a client revalidating with If-Modified-Since only, or with both validators', async () => {
    await call({ accept: binastAccept });
    const validatorSets: Record<string, string>[] = [
      { 'if-modified-since': lastModified },
      { 'if-modified-since': later },
      { 'if-none-match': scriptEtag, 'if-modified-since': later },
    ];
    for (const validators of validatorSets) {
      const response = await call({ accept: binastAccept, ...validators });
      expect(response.status, JSON.stringify(validators)).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/javascript-binast');
      expect(response.headers.get('last-modified')).toBeNull();
      expect(response.headers.get('vary')).toBe('Accept');
    }
  });

  it('judges If-Modified-Since against the JavaScript while the encoding is not ready', async () => {
    const current = await call({ accept: binastAccept, 'if-modified-since': later });
    expect(current.status).toBe(304);
    expect(current.headers.get('vary')).toContain('Accept');
    await clearVariants();
    const stale = await call({ accept: binastAccept, 'if-modified-since': 'Mon, 23 Nov 2026 00:00:00 GMT' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-type')).toBe('text/javascript');
  });

  it('passes conditionals through untouched for clients that did not ask for BinaryAST', async () => {
    const response = await call({ accept: '*/*', 'if-none-match': scriptEtag });
    expect(response.status).toBe(304);
  });
});

describe('etagMatches', () => {
  it('compares weakly, accepts lists and the wildcard, and never matches a missing header', () => {
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', 'W/"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(null, '"a"')).toBe(false);
    expect(etagMatches('"a"', null)).toBe(false);
  });
});
