import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { looksLikeSvg } from '../../src/images/core/svg';
import { callImages } from './helpers';

const utf8 = (text: string) => new TextEncoder().encode(text);
const scripted = `<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>`;

/** An origin answering every path with `body` as `type`. */
const serving = (body: string, type: string) => async () =>
  new Response(body, { headers: { 'content-type': type, 'cache-control': 'public, max-age=60' } });

describe('SVG sources of /cdn-cgi/image/ (Cloudflare serves them, does not resize them)', () => {
  it('serves the site favicon.svg as it is, options ignored, instead of a 415', async () => {
    const { response, bytes, note } = await callImages('/cdn-cgi/image/w=32,f=auto/favicon.svg', {
      headers: { accept: 'image/avif,image/webp,*/*' },
    });
    const original = new Uint8Array(await (await env.ASSETS.fetch('http://assets.test/favicon.svg')).arrayBuffer());
    expect(response.status).toBe(200);
    expect(bytes).toEqual(original);
    expect(response.headers.get('content-type')).toBe('image/svg+xml');
    expect(response.headers.get('vary')).toContain('Accept');
    expect(note).toContain('SVG');
  });

  it('keeps an SVG opened as a page from running its scripts or loading anything (CSP sandbox, nosniff)', async () => {
    const { response } = await callImages('/cdn-cgi/image/w=32/logo.svg', {}, {}, serving(scripted, 'image/svg+xml'));
    expect(response.status).toBe(200);
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain('sandbox');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('cache-control')).toBe('public, max-age=60');
  });

  it.each([
    ['an HTML page labelled image/svg+xml', '<html><script>alert(1)</script></html>', 'image/svg+xml'],
    ['SVG bytes labelled text/html', scripted, 'text/html'],
    [
      'an SVG with an internal DTD subset (entity expansion)',
      '<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg/>',
      'image/svg+xml',
    ],
  ])('still refuses %s with a 415', async (_, body, type) => {
    const { response } = await callImages('/cdn-cgi/image/w=32/x.svg', {}, {}, serving(body, type));
    expect(response.status).toBe(415);
  });

  it('format=json on an SVG stays a 415: there is no raster to describe', async () => {
    const { response } = await callImages('/cdn-cgi/image/f=json/logo.svg', {}, {}, serving(scripted, 'image/svg+xml'));
    expect(response.status).toBe(415);
  });
});

describe('looksLikeSvg', () => {
  it.each([
    ['<svg xmlns="http://www.w3.org/2000/svg"/>', true],
    [
      '\ufeff  <?xml version="1.0" encoding="UTF-8"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd"><svg>',
      true,
    ],
    ['<!-- a > b --><svg\n width="1">', true],
    ['<svgx>', false],
    ['<html><svg>', false],
    ['<?xml version="1.0"', false],
    ['', false],
  ])('%j -> %s', (text, expected) => {
    expect(looksLikeSvg(utf8(text), 'image/svg+xml; charset=utf-8')).toBe(expected);
  });
});
