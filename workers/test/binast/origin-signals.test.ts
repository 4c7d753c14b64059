import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeEach, describe, expect, it } from 'vitest';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastAccept, clearVariants } from './helpers';

beforeEach(clearVariants);

const script = 'var answer = 6 * 7;';

/** An origin serving one script with `headers`; HEAD gets the same headers without the body, as from a real server. */
const origin = (headers: Record<string, string>) => async (request: Request) => {
  const sent = { 'content-type': 'text/javascript', etag: '"s1"', 'content-length': String(script.length), ...headers };
  return new Response(request.method === 'HEAD' ? null : script, { headers: sent });
};

async function call(method: string, accept: string | null, headers: Record<string, string> = {}) {
  const ctx = createExecutionContext();
  const request = new Request('http://speedkit.test/app.js', { method, headers: accept ? { accept } : {} });
  const response = await binastMiddleware(request, env, ctx, origin(headers));
  const bytes = new Uint8Array(await response.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { response, bytes, note: response.headers.get('x-speedkit-binast') };
}

const storedEncodings = async () => (await env.VARIANTS?.list({ prefix: 'binast/' }))?.objects.length ?? 0;

describe("the origin's Cache-Control: no-transform", () => {
  it('keeps its script JavaScript for a client asking for BinaryAST, and nothing is encoded', async () => {
    for (let round = 0; round < 2; round += 1) {
      const { bytes, note, response } = await call('GET', binastAccept, {
        'cache-control': 'max-age=60, no-transform',
      });
      expect(new TextDecoder().decode(bytes)).toBe(script);
      expect(note).toBe('no-transform');
      expect(response.headers.get('content-type')).toBe('text/javascript');
    }
    expect(await storedEncodings()).toBe(0);
  });
});

describe('HEAD of a script has the headers of its GET, without a body', () => {
  it('says Vary: Accept to a client that did not ask for BinaryAST, as the GET does', async () => {
    const get = await call('GET', '*/*');
    const head = await call('HEAD', '*/*');
    expect(head.response.headers.get('vary')).toBe(get.response.headers.get('vary'));
    expect(head.response.headers.get('vary')).toContain('Accept');
    expect(head.bytes.byteLength).toBe(0);
  });

  it('gets the stored encoding’s type, length and ETag when there is one, and encodes nothing itself', async () => {
    const cold = await call('HEAD', binastAccept);
    expect(cold.note).toBe('miss');
    expect(cold.response.headers.get('vary')).toContain('Accept');
    expect(await storedEncodings()).toBe(0);
    await call('GET', binastAccept);
    const get = await call('GET', binastAccept);
    expect(get.note).toBe('hit');
    const head = await call('HEAD', binastAccept);
    expect(head.response.status).toBe(200);
    expect(head.bytes.byteLength).toBe(0);
    for (const name of ['content-type', 'content-length', 'etag', 'vary', 'x-speedkit-binast']) {
      expect(head.response.headers.get(name), name).toBe(get.response.headers.get(name));
    }
  });
});

describe('a BinaryAST answer keeps the resource’s own headers', () => {
  it('carries the origin’s CORS, CORP and caching headers, but not the JavaScript’s validators', async () => {
    const headers = {
      'cache-control': 'public, max-age=600',
      'access-control-allow-origin': '*',
      'cross-origin-resource-policy': 'cross-origin',
      'timing-allow-origin': '*',
      'last-modified': 'Tue, 24 Nov 2026 01:00:00 GMT',
      'x-content-type-options': 'nosniff',
    };
    await call('GET', binastAccept, headers);
    const { response, note } = await call('GET', binastAccept, headers);
    expect(note).toBe('hit');
    expect(response.headers.get('content-type')).toBe('application/javascript-binast');
    for (const name of ['cache-control', 'access-control-allow-origin', 'cross-origin-resource-policy']) {
      expect(response.headers.get(name), name).toBe(headers[name as keyof typeof headers]);
    }
    expect(response.headers.get('timing-allow-origin')).toBe('*');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    // A date saved with the JavaScript must not revalidate the BinaryAST answer.
    expect(response.headers.get('last-modified')).toBeNull();
    expect(response.headers.get('etag')).toMatch(/-binast"$/);
  });
});

describe('a script body without Content-Length is read only up to the size limit', () => {
  /** A chunked body that never ends: read whole, it would hold the request and the isolate's memory forever. */
  const endless = () =>
    new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new TextEncoder().encode('var x = 1;\n'.repeat(1000)));
      },
    });

  it.each([
    ['without an ETag', {}],
    ['with an ETag', { etag: '"big"' }],
  ])(
    'streams on as JavaScript, too large, %s',
    async (_name, headers) => {
      const next = async () => new Response(endless(), { headers: { 'content-type': 'text/javascript', ...headers } });
      const ctx = createExecutionContext();
      const request = new Request('http://speedkit.test/endless.js', { headers: { accept: binastAccept } });
      const response = await binastMiddleware(
        request,
        { ...env, BINAST_MAX_SOURCE_BYTES: '100000' } as unknown as Env,
        ctx,
        next,
      );
      expect(response.headers.get('x-speedkit-binast')).toBe('too large');
      const reader = response.body?.getReader();
      const first = await reader?.read();
      expect(new TextDecoder().decode(first?.value).startsWith('var x = 1;')).toBe(true);
      await reader?.cancel();
      await waitOnExecutionContext(ctx);
      // Nothing but, with an ETag, the marker that says it is too large, which spares the next request the read.
      const keys = (await env.VARIANTS?.list({ prefix: 'binast/' }))?.objects.map((object) => object.key) ?? [];
      expect(keys.every((key) => key.endsWith('.failed'))).toBe(true);
      expect(keys.length).toBe('etag' in headers ? 1 : 0);
    },
    10_000,
  );
});
