import { exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';

const call = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`http://speedkit.test${path}`, init));

/** The headers that must match between GET and HEAD (the timing value itself differs per request). */
const comparable = (headers: Headers) =>
  Object.fromEntries([...headers].filter(([name]) => name !== 'server-timing' && name !== 'date'));

describe('HEAD wherever GET is answered', () => {
  it('answers HEAD /__down?bytes=10 with 200, the GET headers and no body', async () => {
    const get = await call('/__down?bytes=10');
    await get.arrayBuffer();
    const head = await call('/__down?bytes=10', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('10');
    expect(comparable(head.headers)).toEqual(comparable(get.headers));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers HEAD for a 1 GB download at once, without generating its bytes', async () => {
    const head = await call('/__down?bytes=1000000000', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('1000000000');
  });

  it('answers HEAD /meta with the JSON headers and the length of the GET body', async () => {
    const get = await call('/meta');
    const body = await get.arrayBuffer();
    const head = await call('/meta', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(get.headers.get('content-type'));
    expect(head.headers.get('content-length')).toBe(String(body.byteLength));
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it('keeps the GET status for a bad HEAD request (400 with the JSON length)', async () => {
    const head = await call('/__down?bytes=-1', { method: 'HEAD' });
    expect(head.status).toBe(400);
    expect(Number(head.headers.get('content-length'))).toBeGreaterThan(0);
  });

  it('still refuses HEAD on the POST-only /__up with 405 and Allow', async () => {
    const head = await call('/__up', { method: 'HEAD' });
    expect(head.status).toBe(405);
    expect(head.headers.get('allow')).toBe('POST, OPTIONS');
  });
});
