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
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** Pure: builds the meta object from the request's headers and `request.cf` (absent outside Cloudflare). */
export function connectionMeta(headers: Headers, cf: Record<string, unknown> | undefined): ConnectionMeta {
  return {
    clientIp: text(headers.get('cf-connecting-ip')),
    colo: text(cf?.colo),
    country: text(cf?.country),
    city: text(cf?.city),
    region: text(cf?.region),
    asn: typeof cf?.asn === 'number' ? cf.asn : null,
    asOrganization: text(cf?.asOrganization),
    httpProtocol: text(cf?.httpProtocol),
    tlsVersion: text(cf?.tlsVersion),
  };
}

/** `GET /meta`. */
export function handleMeta(request: Request): Response {
  const meta = connectionMeta(request.headers, request.cf as Record<string, unknown> | undefined);
  return json(meta, {
    headers: { 'cache-control': 'no-store', 'access-control-allow-origin': '*', 'timing-allow-origin': '*' },
  });
}
