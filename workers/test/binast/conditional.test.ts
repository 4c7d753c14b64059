import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { etagMatches } from '../../src/binast/conditional';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastAccept, clearVariants } from './helpers';

const scriptEtag = '"script-v1"';

/** An origin that honours If-None-Match the way the static assets and most servers do. */
async function revalidatingOrigin(request: Request): Promise<Response> {
  if (request.headers.get('if-none-match') === scriptEtag) {
    return new Response(null, { status: 304, headers: { etag: scriptEtag } });
  }
  return new Response('var answer = 6 * 7;', { headers: { 'content-type': 'text/javascript', etag: scriptEtag } });
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
