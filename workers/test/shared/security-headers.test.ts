import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { measurementOrigin, withSecurityHeaders } from '../../src/shared/security-headers';

const call = (path: string, init?: RequestInit) =>
  exports.default.fetch(new Request(`http://speedkit.test${path}`, init));
const html = (body: string, headers: Record<string, string> = {}) =>
  new Response(body, { headers: { 'content-type': 'text/html; charset=utf-8', ...headers } });

// The first request starts the Worker (every capability's modules, Wasm included): outside the tests' timeouts.
beforeAll(async () => {
  await (await call('/meta')).arrayBuffer();
}, 60_000);

describe('security headers on every HTML page', () => {
  it.each(['/', '/baseline.html', '/demo/images.html', '/demo/loader-libs.html'])(
    'GET %s carries CSP, nosniff and Referrer-Policy',
    async (path) => {
      const response = await call(path, { redirect: 'follow' });
      const final =
        response.status === 307
          ? await call(new URL(response.headers.get('location') ?? '/', 'http://speedkit.test').pathname)
          : response;
      expect(final.status).toBe(200);
      expect(final.headers.get('content-security-policy')).toMatch(
        /script-src 'self' 'nonce-[\w-]+'.*'wasm-unsafe-eval'/,
      );
      expect(final.headers.get('x-content-type-options')).toBe('nosniff');
      expect(final.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
      await final.arrayBuffer();
    },
  );

  it('gives every script without a nonce this response’s nonce, a fresh one per response', async () => {
    const first = await withSecurityHeaders(html('<script src="/a.js"></script><script>1</script>'));
    const second = await withSecurityHeaders(html('<script src="/a.js"></script>'));
    const nonce = /'nonce-([\w-]+)'/.exec(first.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeTruthy();
    expect(await first.text()).toBe(
      `<script src="/a.js" nonce="${nonce}"></script><script nonce="${nonce}">1</script>`,
    );
    expect(second.headers.get('content-security-policy')).not.toContain(`'nonce-${nonce}'`);
  });

  it('keeps a nonce the page already uses and allows it in the header too', async () => {
    const response = await withSecurityHeaders(html('<script nonce="mine" src="/a.js"></script>'));
    expect(await response.text()).toBe('<script nonce="mine" src="/a.js"></script>');
    expect(response.headers.get('content-security-policy')).toContain("'nonce-mine'");
  });

  it('allows inline event handlers by their SHA-256 only', async () => {
    const response = await withSecurityHeaders(html('<script src="/a.js" onload="go()"></script>'));
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode('go()')));
    const hash = btoa(String.fromCharCode(...digest));
    expect(response.headers.get('content-security-policy')).toContain(`'unsafe-hashes' 'sha256-${hash}'`);
  });

  it('never allows unsafe-inline or unsafe-eval for scripts', async () => {
    const policy = (await withSecurityHeaders(html('<p>hi</p>'))).headers.get('content-security-policy') ?? '';
    const scriptSrc = policy.split(';').find((directive) => directive.trim().startsWith('script-src')) ?? '';
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    expect(policy).toContain("object-src 'none'");
    expect(policy).toContain("frame-ancestors 'self'");
  });

  it('lets a page connect to the server its ?server= names, and to nothing else', async () => {
    const page = (query: string) => new URL(`https://speed.test/${query}`);
    const connectSrc = async (query: string) =>
      ((await withSecurityHeaders(html('<p>hi</p>'), page(query))).headers.get('content-security-policy') ?? '')
        .split(';')
        .find((directive) => directive.trim().startsWith('connect-src'))
        ?.trim();
    expect(await connectSrc('?server=https://measure.example.com/speed')).toBe(
      "connect-src 'self' https://measure.example.com",
    );
    expect(await connectSrc('?server=http://10.0.0.2:8787')).toBe("connect-src 'self' http://10.0.0.2:8787");
    for (const query of [
      '',
      '?server=',
      '?server=javascript:alert(1)',
      '?server=ftp://files.example.com',
      '?server=http://[::1]:8787',
      '?server=not a url',
      '?server=https://speed.test/',
    ]) {
      expect(await connectSrc(query), query).toBe("connect-src 'self'");
    }
    // Whatever the query holds, the host is parsed: no way to smuggle a directive into the policy.
    expect(measurementOrigin(page("?server=https://a.example.com;script-src%20*'"))).toBeUndefined();
    expect(measurementOrigin(page('?server=https://a.example.com%3Bscript-src'))).toBeUndefined();
  });

  it('leaves JSON, images and scripts alone', async () => {
    const meta = await call('/meta');
    expect(meta.headers.get('content-security-policy')).toBeNull();
    await meta.arrayBuffer();
    const response = new Response('{}', { headers: { 'content-type': 'application/json' } });
    expect(await withSecurityHeaders(response)).toBe(response);
  });
});
