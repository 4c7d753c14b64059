import { exports, env as workerEnv } from 'cloudflare:workers';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { handleTurnCreds, issueTurnCredentials, turnConfig, turnCredentialTtlS } from '../../src/speedtest/turn-creds';

const base = 'http://speedkit.test';
const call = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${base}${path}`, init));
const env = { TURN_SECRET: 'a-secret-made-for-this-test', TURN_URLS: 'turn:127.0.0.1:3478?transport=udp, stun:x' };

describe('turnConfig', () => {
  it('reads the secret and keeps only turn:/turns: URLs', () => {
    expect(turnConfig(env)).toEqual({ secret: env.TURN_SECRET, urls: ['turn:127.0.0.1:3478?transport=udp'] });
  });

  it('names what is missing', () => {
    expect(turnConfig({})).toEqual({ missing: 'TURN_SECRET' });
    expect(turnConfig({ TURN_SECRET: 's', TURN_URLS: 'stun:x' })).toEqual({ missing: 'TURN_URLS' });
  });
});

describe('issueTurnCredentials', () => {
  it('follows the TURN REST API scheme coturn checks (expiry:random, base64 HMAC-SHA1)', async () => {
    const nowMs = 1_790_000_000_123;
    const config = { secret: env.TURN_SECRET, urls: ['turn:127.0.0.1:3478'] };
    const creds = await issueTurnCredentials(config, nowMs, 'abcd');
    expect(creds.username).toBe(`${1_790_000_000 + turnCredentialTtlS}:abcd`);
    const expected = createHmac('sha1', env.TURN_SECRET).update(creds.username).digest('base64');
    expect(creds.credential).toBe(expected);
    expect(creds.ttlS).toBe(turnCredentialTtlS);
    expect(creds.urls).toEqual(config.urls);
  });
});

describe('GET /turn-creds', () => {
  it('issues fresh credentials, never the secret, and forbids caching', async () => {
    const response = await handleTurnCreds(new Request(`${base}/turn-creds`), env);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const text = await response.text();
    expect(text).not.toContain(env.TURN_SECRET);
    const body = JSON.parse(text) as { username: string; credential: string; urls: string[] };
    const [expiry, random] = body.username.split(':');
    const nowS = Date.now() / 1000;
    expect(Number(expiry)).toBeGreaterThan(nowS);
    expect(Number(expiry)).toBeLessThanOrEqual(nowS + turnCredentialTtlS + 1);
    expect(random).toMatch(/^[0-9a-f]{16}$/);
    expect(body.credential).toBe(createHmac('sha1', env.TURN_SECRET).update(body.username).digest('base64'));
    expect(body.urls).toEqual(['turn:127.0.0.1:3478?transport=udp']);
  });

  // wrangler.toml sets no TURN_SECRET (a secret / .dev.vars entry); a .dev.vars left by `npm start` would set one.
  const configured = typeof (workerEnv as unknown as Record<string, unknown>).TURN_SECRET === 'string';

  it.skipIf(configured)(
    'answers 404 with the reason through the Worker when no TURN server is configured',
    async () => {
      const response = await call('/turn-creds');
      expect(response.status).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const body = (await response.json()) as { error: string; detail: { missing: string } };
      expect(body.error).toMatch(/no TURN server is configured/);
      expect(body.detail.missing).toBe('TURN_SECRET');
    },
  );

  it('answers HEAD like GET without a body, and 405 for POST', async () => {
    const head = await call('/turn-creds', { method: 'HEAD' });
    expect(head.status).toBe(configured ? 200 : 404);
    expect(await head.text()).toBe('');
    const post = await call('/turn-creds', { method: 'POST' });
    expect(post.status).toBe(405);
  });
});
