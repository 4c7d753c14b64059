import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastAccept } from './helpers';

// The variant store is an optimisation: when R2 fails, the script is served as the origin sent it (README: "the
// Worker never answers 5xx because of BinaryAST").

/** An R2 bucket whose every call fails, as during an R2 outage. */
const failingStore = new Proxy(
  {},
  {
    get: () => async () => {
      throw new Error('R2 is unavailable');
    },
  },
) as R2Bucket;

const origin = async (request: Request) =>
  new Response(request.method === 'HEAD' ? null : 'var up = 1;', {
    headers: { 'content-type': 'text/javascript', etag: '"u1"', 'content-length': '11' },
  });

async function ask(method: 'GET' | 'HEAD') {
  const ctx = createExecutionContext();
  const request = new Request('http://speedkit.test/up.js', { method, headers: { accept: binastAccept } });
  const response = await binastMiddleware(request, { ...env, VARIANTS: failingStore } as Env, ctx, origin);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { response, text, note: response.headers.get('x-speedkit-binast') };
}

describe('a variant store that fails', () => {
  it('serves a GET the original script', async () => {
    const { response, text, note } = await ask('GET');
    expect(response.status).toBe(200);
    expect(text).toBe('var up = 1;');
    expect(note).toBe('error');
  });

  it('answers a HEAD with the original script’s headers, not an exception', async () => {
    const { response, note } = await ask('HEAD');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/javascript');
    expect(response.headers.get('etag')).toBe('"u1"');
    expect(response.headers.get('vary')).toBe('Accept');
    expect(note).toBe('error');
  });
});
