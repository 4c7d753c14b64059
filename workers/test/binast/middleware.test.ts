import { env } from 'cloudflare:workers';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { parse } from 'acorn';
import { beforeEach, describe, expect, it } from 'vitest';
import { decodeScript } from '../../src/binast/codec';
import { binastAccept, callBinast, clearVariants, demoScript } from './helpers';

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const parseScript = (source: string) => parse(source, { ecmaVersion: 'latest', sourceType: 'script' });
const origin =
  (body: string, headers: Record<string, string> = {}) =>
  async () =>
    new Response(body, { headers: { 'content-type': 'text/javascript', ...headers } });

beforeEach(clearVariants);

describe('scripts that are not UTF-8', () => {
  // "Café über ©" in ISO-8859-1: bytes a UTF-8 reading would turn into replacement characters.
  const latin1 = Uint8Array.from([...'var msg = "Caf\xe9 \xfcber \xa9";'].map((c) => c.charCodeAt(0)));
  const serve =
    (contentType: string, etag: string | null = '"l1"') =>
    async () =>
      new Response(latin1, { headers: { 'content-type': contentType, ...(etag ? { etag } : {}) } });

  it('serves a script declared in another charset as it is, without encoding it', async () => {
    for (const etag of ['"l1"', null]) {
      const first = await callBinast(
        '/latin1.js',
        binastAccept,
        {},
        serve('text/javascript; charset=ISO-8859-1', etag),
      );
      expect(first.note).toBe('not UTF-8');
      expect(first.bytes).toEqual(latin1);
      expect(
        (await callBinast('/latin1.js', binastAccept, {}, serve('text/javascript; charset=iso-8859-1'))).note,
      ).toBe('not UTF-8');
    }
  });

  it('never stores an encoding of bytes that are not UTF-8, and serves them unchanged', async () => {
    for (const etag of ['"l2"', null]) {
      const first = await callBinast('/latin1.js', binastAccept, {}, serve('text/javascript', etag));
      expect(first.bytes).toEqual(latin1);
      const second = await callBinast('/latin1.js', binastAccept, {}, serve('text/javascript', etag));
      expect(second.note).toBe('unsupported');
      expect(second.bytes).toEqual(latin1);
    }
  });
});

describe('BinaryAST negotiation for .js responses', () => {
  it('serves the original script with Vary: Accept on a miss, then the stored encoding', async () => {
    const first = await callBinast(demoScript, binastAccept);
    const original = text(first.bytes);
    expect(first.response.headers.get('content-type')).toContain('javascript');
    expect(first.response.headers.get('vary')).toContain('Accept');
    expect(first.note).toBe('miss; encoding');

    const second = await callBinast(demoScript, binastAccept);
    expect(second.note).toBe('hit');
    expect(second.response.headers.get('content-type')).toBe('application/javascript-binast');
    expect(second.response.headers.get('vary')).toBe('Accept');
    expect(text(second.bytes.slice(0, 5))).toBe('BINJS');
    const regenerated = decodeScript(second.bytes);
    expect(firstDifference(parseScript(original), parseScript(regenerated))).toBeNull();
  });

  it('never serves BinaryAST to a client that did not ask for it, even when an encoding is stored', async () => {
    await callBinast(demoScript, binastAccept);
    await callBinast(demoScript, binastAccept);
    for (const accept of ['*/*', null, 'application/javascript-binast;q=0']) {
      const { response, note } = await callBinast(demoScript, accept);
      expect(response.headers.get('content-type')).toContain('javascript');
      expect(response.headers.get('content-type')).not.toContain('binast');
      expect(response.headers.get('vary')).toContain('Accept');
      expect(note).toBe('not requested');
    }
  });

  it('serves BinaryAST to a request marked with the query parameter, whatever its Accept, keyed by the URL without it', async () => {
    const seen: string[] = [];
    const next = (request: Request) => {
      // The script's requests only (a miss also asks for a prebuilt file beside it: prebuilt.test.ts).
      const { pathname, search } = new URL(request.url);
      if (pathname === demoScript) seen.push(search);
      return env.ASSETS.fetch(request);
    };
    // A miss encodes under the script's own URL; the next marked request and an Accept one both find it.
    expect((await callBinast(`${demoScript}?__binast`, null, {}, next)).note).toBe('miss; encoding');
    const marked = await callBinast(`${demoScript}?__binast`, '*/*', {}, next);
    expect(marked.note).toBe('hit');
    expect(marked.response.headers.get('content-type')).toBe('application/javascript-binast');
    expect((await callBinast(demoScript, binastAccept)).note).toBe('hit');
    // After a query of its own: the origin never sees the marker, and the same bytes under another query are the
    // same encoding (a query selecting other bytes gets its own: origin-quirks.test.ts).
    expect((await callBinast(`${demoScript}?v=2&__binast`, null, {}, next)).note).toBe('hit');
    expect(seen).toEqual(['', '', '?v=2']);
    // Anywhere but at the end it is the site's own parameter: passed on, not a request for BinaryAST.
    const inside = await callBinast(`${demoScript}?__binast&v=2`, '*/*', {}, next);
    expect(inside.note).toBe('not requested');
    expect(seen.at(-1)).toBe('?__binast&v=2');
  });

  it('leaves responses that are not JavaScript untouched', async () => {
    const { response, note } = await callBinast('/', binastAccept);
    expect(response.headers.get('content-type')).toContain('text/html');
    expect(note).toBe('');
  });

  it('serves a script the parser rejects as JavaScript and remembers not to parse it again', async () => {
    const broken = origin('function (', { etag: '"v1"' });
    const first = await callBinast('/broken.js', binastAccept, {}, broken);
    expect(text(first.bytes)).toBe('function (');
    const second = await callBinast('/broken.js', binastAccept, {}, broken);
    expect(second.note).toBe('unsupported');
    expect(text(second.bytes)).toBe('function (');
  });

  it('serves syntax newer than the parser unchanged (decorators, which acorn 8.19 does not read)', async () => {
    const source = '@logged class A {}\nexport { A };\n';
    const newer = origin(source, { etag: '"d1"' });
    expect(text((await callBinast('/decorated.js', binastAccept, {}, newer)).bytes)).toBe(source);
    const second = await callBinast('/decorated.js', binastAccept, {}, newer);
    expect(second.note).toBe('unsupported');
    expect(second.response.headers.get('content-type')).toContain('javascript');
    expect(text(second.bytes)).toBe(source);
  });

  it('serves scripts over BINAST_MAX_SOURCE_BYTES as JavaScript and stores no encoding', async () => {
    const vars = { BINAST_MAX_SOURCE_BYTES: '100' };
    await callBinast(demoScript, binastAccept, vars);
    const second = await callBinast(demoScript, binastAccept, vars);
    expect(second.note).toBe('unsupported');
    expect(second.response.headers.get('content-type')).toContain('javascript');
  });

  it('keys encodings by body hash when the origin sends no ETag', async () => {
    const v1 = origin('var version = 1;');
    const v2 = origin('var version = 2;');
    await callBinast('/app.js', binastAccept, {}, v1);
    expect(decodeScript((await callBinast('/app.js', binastAccept, {}, v1)).bytes)).toBe('var version=1;');
    expect((await callBinast('/app.js', binastAccept, {}, v2)).note).toBe('miss; encoding');
  });

  it('stores each layout, its wire format number and lazy level under its own key', async () => {
    const multipart = { BINAST_LAYOUT: 'multipart', BINAST_LAZY_LEVEL: '1' };
    await callBinast(demoScript, binastAccept);
    expect((await callBinast(demoScript, binastAccept, multipart)).note).toBe('miss; encoding');
    const { bytes } = await callBinast(demoScript, binastAccept, multipart);
    expect(bytes[5]).toBe(0x02); // varnum(1): format 1, multipart
    const listed = await env.VARIANTS?.list({ prefix: 'binast/' });
    expect(listed?.objects.map((o) => o.key.split('/')[1]).sort()).toEqual(['context-f7-lazy0', 'multipart-f1-lazy1']);
  });
});

describe('decodeToJavaScript in workerd', () => {
  it('throws an Error naming the problem on input that is not BinaryAST', () => {
    expect(() => decodeScript(new TextEncoder().encode('var a = 1;'))).toThrow(/BINJS magic/);
  });

  it('throws, never traps, on a truncated encoding', async () => {
    await callBinast(demoScript, binastAccept);
    const { bytes } = await callBinast(demoScript, binastAccept);
    for (const length of [6, 100, bytes.length - 1]) {
      expect(() => decodeScript(bytes.slice(0, length))).toThrow(Error);
    }
    expect(decodeScript(bytes)).toContain('Backbone');
  });
});
