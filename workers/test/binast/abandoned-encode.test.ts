import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { binastMiddleware } from '../../src/binast/middleware';
import { binastAccept, clearVariants } from './helpers';

// The runtime ends a request's `waitUntil` work 30 s after the response at the latest, and code waiting in it never
// runs again (no `finally`): an encode it cut off must not keep its script claimed for the isolate's life.

beforeEach(clearVariants);
afterEach(() => {
  vi.restoreAllMocks();
});

const source = 'var cutOff = 1;';
const origin = async (request: Request) =>
  new URL(request.url).pathname.endsWith('.binast')
    ? new Response(null, { status: 404 })
    : new Response(source, { headers: { 'content-type': 'text/javascript', etag: '"c1"' } });

/** The real store, except that the first attempt marker's write never settles: the runtime cut that encode off. */
function storeCuttingOffFirstEncode(): R2Bucket {
  const store = env.VARIANTS as R2Bucket;
  let cut = false;
  return new Proxy(store, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name === 'put') {
        return (key: string, ...rest: unknown[]) => {
          if (!cut && key.endsWith('.encoding')) {
            cut = true;
            return new Promise(() => {});
          }
          return (value as (...args: unknown[]) => unknown).call(target, key, ...rest);
        };
      }
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

describe('an encode the runtime cut off in this isolate', () => {
  it('is started again once as old as an abandoned one, instead of leaving the script JavaScript for good', async () => {
    const variants = storeCuttingOffFirstEncode();
    const ask = async (wait: boolean) => {
      const ctx = createExecutionContext();
      const request = new Request('http://speedkit.test/cut-off.js', { headers: { accept: binastAccept } });
      const response = await binastMiddleware(request, { ...env, VARIANTS: variants } as Env, ctx, origin);
      const note = response.headers.get('x-speedkit-binast');
      const text = await response.text();
      // Every answer but a hit is the script as the origin sent it.
      if (note !== 'hit') expect(text).toBe(source);
      // The cut-off encode's waitUntil never ends: not waited for.
      if (wait) await waitOnExecutionContext(ctx);
      return note;
    };
    expect(await ask(false)).toBe('miss; encoding');
    expect(await ask(true)).toBe('miss; encoding elsewhere');
    // Two minutes later, far past any waitUntil's end: that encode is gone, not running elsewhere.
    const nowMs = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(nowMs + 2 * 60_000);
    expect(await ask(true)).toBe('miss; encoding');
    expect(await ask(true)).toBe('hit');
  });
});
