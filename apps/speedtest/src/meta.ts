/**
 * Pure: one line about the connection from `/meta` (see workers/src/speedtest/meta.ts). Deployed, Cloudflare's edge
 * fills in the data centre, the client's city and network; locally every location field is null, and the line says
 * so instead of showing a placeholder.
 */
export function describeConnection(meta: Record<string, unknown>): string {
  const text = (key: string) => (typeof meta[key] === 'string' && meta[key] !== '' ? (meta[key] as string) : null);
  const place = [text('city'), text('country')].filter(Boolean).join(', ');
  const colo = text('colo');
  const server = colo ? `server ${colo}${place ? ` (you: ${place})` : ''}` : 'server location unknown (local server)';
  const asn = typeof meta.asn === 'number' ? `AS${meta.asn}` : null;
  const network = [asn, text('asOrganization')].filter(Boolean).join(' ');
  const protocol = [text('httpProtocol'), text('tlsVersion')].filter(Boolean).join(', ');
  const rtt = typeof meta.clientTcpRttMs === 'number' ? `edge TCP RTT ${meta.clientTcpRttMs} ms` : null;
  return `Connection: ${[server, network && `network ${network}`, protocol, rtt].filter(Boolean).join(' · ')}`;
}
