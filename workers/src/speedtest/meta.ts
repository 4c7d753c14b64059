import { json } from '../shared/json';

/** Where the client appears to connect from, as the edge sees it. Every field is null when unknown (locally). */
export interface ConnectionMeta {
  clientIp: string | null;
  colo: string | null;
  country: string | null;
  city: string | null;
  region: string | null;
  asn: number | null;
  asOrganization: string | null;
  httpProtocol: string | null;
  tlsVersion: string | null;
  /** Round trip of the client's TCP connection as the edge measured it (ms); null over QUIC or locally. */
  clientTcpRttMs: number | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** 127.0.0.0/8 and ::1: only `wrangler dev` sees these, never Cloudflare's edge. */
const isLoopback = (ip: string | null) => ip !== null && (/^127\./.test(ip) || ip === '::1');

/**
 * Pure: builds the meta object from the request's headers and `request.cf` (absent outside Cloudflare).
 * `wrangler dev` fills `request.cf` with a fixed placeholder (Austin, DFW, one ASN) when it cannot fetch real data;
 * a loopback client means that placeholder, so location, network, TLS version and RTT are reported as unknown rather
 * than made up (the placeholder claims TLSv1.3 on a plain-HTTP loopback connection). The HTTP protocol stays: it
 * describes the local connection correctly.
 */
export function connectionMeta(headers: Headers, cf: Record<string, unknown> | undefined): ConnectionMeta {
  const clientIp = text(headers.get('cf-connecting-ip'));
  const location = isLoopback(clientIp) ? undefined : cf;
  return {
    clientIp,
    colo: text(location?.colo),
    country: text(location?.country),
    city: text(location?.city),
    region: text(location?.region),
    asn: typeof location?.asn === 'number' ? location.asn : null,
    asOrganization: text(location?.asOrganization),
    httpProtocol: text(cf?.httpProtocol),
    tlsVersion: text(location?.tlsVersion),
    clientTcpRttMs:
      typeof location?.clientTcpRtt === 'number' && location.clientTcpRtt > 0 ? location.clientTcpRtt : null,
  };
}

/** `GET /meta`. */
export function handleMeta(request: Request): Response {
  const meta = connectionMeta(request.headers, request.cf as Record<string, unknown> | undefined);
  return json(meta, {
    headers: { 'cache-control': 'no-store', 'access-control-allow-origin': '*', 'timing-allow-origin': '*' },
  });
}
