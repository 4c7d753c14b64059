import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { speedtestRoutes } from '../../src/speedtest/route';
import standalone from '../../src/speedtest/standalone';

// The endpoints never touch the execution context; a bare object stands in for it.
const ctx = {} as ExecutionContext;

describe('[env.speedtest] entry (endpoints only)', () => {
  it('answers /__down itself', async () => {
    const response = await standalone.fetch(new Request('https://example.com/__down?bytes=1234'), env, ctx);
    expect(response.status).toBe(200);
    expect((await response.arrayBuffer()).byteLength).toBe(1234);
  });

  it('answers bad input with the same JSON errors', async () => {
    const response = await standalone.fetch(new Request('https://example.com/__down?bytes=x'), env, ctx);
    expect(response.status).toBe(400);
  });
});

describe('speedtestRoutes', () => {
  it('hands every other path to the next handler (the origin when deployed alone)', async () => {
    const seen: string[] = [];
    const origin = async (request: Request) => {
      seen.push(new URL(request.url).pathname);
      return new Response('from origin');
    };
    const response = await speedtestRoutes(new Request('https://example.com/index.html'), env, ctx, origin);
    expect(await response.text()).toBe('from origin');
    expect(seen).toEqual(['/index.html']);
  });

  it('does not treat a longer path as an endpoint', async () => {
    const origin = async () => new Response('from origin');
    const response = await speedtestRoutes(new Request('https://example.com/__download'), env, ctx, origin);
    expect(await response.text()).toBe('from origin');
  });
});
