import { json, jsonError } from '../shared/json';

/** How long issued TURN credentials stay valid (s): long enough for one test, short enough to be useless later. */
export const turnCredentialTtlS = 5 * 60;

/** What `/turn-creds` answers: the TURN REST API (draft-uberti-behave-turn-rest) shape, ready for `iceServers`. */
export interface TurnCredentials {
  username: string;
  credential: string;
  ttlS: number;
  urls: string[];
}

/** The configuration the endpoint reads from the Worker's env (a secret and a var; `.dev.vars` locally). */
export interface TurnConfig {
  secret: string;
  urls: string[];
}

/** Pure: reads `TURN_SECRET` and `TURN_URLS` (comma-separated `turn:` URLs), or which of them is missing. */
export function turnConfig(env: Record<string, unknown>): TurnConfig | { missing: string } {
  const secret = typeof env.TURN_SECRET === 'string' ? env.TURN_SECRET : '';
  const urls = (typeof env.TURN_URLS === 'string' ? env.TURN_URLS : '')
    .split(',')
    .map((url) => url.trim())
    .filter((url) => /^turns?:/.test(url));
  if (secret === '') return { missing: 'TURN_SECRET' };
  if (urls.length === 0) return { missing: 'TURN_URLS' };
  return { secret, urls };
}

const base64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

/**
 * The TURN REST API scheme coturn checks with `use-auth-secret`: username `<expiry unix s>:<random>`, credential
 * base64(HMAC-SHA1(secret, username)). The secret itself never leaves the Worker.
 */
export async function issueTurnCredentials(
  config: TurnConfig,
  nowMs: number,
  random: string,
  ttlS = turnCredentialTtlS,
): Promise<TurnCredentials> {
  const username = `${Math.floor(nowMs / 1000) + ttlS}:${random}`;
  const key = await crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(config.secret),
    { name: 'HMAC', hash: 'SHA-1' },
    false,
    ['sign'],
  );
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(username));
  return { username, credential: base64(mac), ttlS, urls: config.urls };
}

const randomHex = (bytes: number) =>
  Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (byte) => byte.toString(16).padStart(2, '0')).join('');

const headers = { 'cache-control': 'no-store', 'access-control-allow-origin': '*' };

/** `GET /turn-creds`: short-lived TURN credentials, or 404 saying what is not configured. */
export async function handleTurnCreds(_request: Request, env: Record<string, unknown>): Promise<Response> {
  const config = turnConfig(env);
  if ('missing' in config) {
    return jsonError(
      404,
      'no TURN server is configured, so the packet-loss test is unavailable',
      { missing: config.missing },
      { headers },
    );
  }
  return json(await issueTurnCredentials(config, Date.now(), randomHex(8)), { headers });
}
