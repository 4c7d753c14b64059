import { describe, expect, it } from 'vitest';
import { etagMatches, isNotModified, notModified, withoutConditionals } from '../../src/shared/conditional';

const lastModified = 'Tue, 24 Nov 2026 01:00:00 GMT';

describe('conditional requests', () => {
  it('matches ETags weakly, lists and the wildcard', () => {
    expect(etagMatches('"a"', '"a"')).toBe(true);
    expect(etagMatches('W/"a"', '"a"')).toBe(true);
    expect(etagMatches('"b", "a"', 'W/"a"')).toBe(true);
    expect(etagMatches('*', '"a"')).toBe(true);
    // RFC 9110 §13.1.2: "*" is about any current representation, one served without an ETag as well.
    expect(etagMatches('*', null)).toBe(true);
    expect(etagMatches('"b", *', null)).toBe(true);
    expect(etagMatches('"b"', '"a"')).toBe(false);
    expect(etagMatches(null, '"a"')).toBe(false);
    expect(etagMatches('"a"', null)).toBe(false);
  });

  it('prefers If-None-Match over If-Modified-Since', () => {
    const response = new Response('x', { headers: { etag: '"a"', 'last-modified': lastModified } });
    const request = (headers: Record<string, string>) => new Request('https://example.com/', { headers });
    expect(isNotModified(request({ 'if-none-match': '"a"' }), response)).toBe(true);
    expect(isNotModified(request({ 'if-none-match': '"b"', 'if-modified-since': lastModified }), response)).toBe(false);
    expect(isNotModified(request({ 'if-modified-since': lastModified }), response)).toBe(true);
    expect(isNotModified(request({ 'if-modified-since': 'Mon, 23 Nov 2026 01:00:00 GMT' }), response)).toBe(false);
    expect(isNotModified(request({ 'if-modified-since': 'not a date' }), response)).toBe(false);
    expect(isNotModified(request({ 'if-none-match': '"a"' }), new Response('x', { status: 404 }))).toBe(false);
  });

  it('strips validators and builds a bodiless 304 with the caching headers', () => {
    const stripped = withoutConditionals(
      new Request('https://example.com/', {
        headers: { 'if-none-match': '"a"', 'if-modified-since': lastModified, accept: '*/*' },
      }),
    );
    expect([...stripped.headers.keys()]).toEqual(['accept']);
    const response = new Response('x', {
      headers: { etag: '"a"', 'cache-control': 'max-age=60', 'content-type': 'text/plain', 'x-debug': 'hit' },
    });
    const reply = notModified(response, ['x-debug']);
    expect(reply.status).toBe(304);
    expect(reply.body).toBeNull();
    expect(Object.fromEntries(reply.headers)).toEqual({ etag: '"a"', 'cache-control': 'max-age=60', 'x-debug': 'hit' });
  });
});
