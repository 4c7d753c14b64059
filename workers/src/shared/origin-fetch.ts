import { json } from './json';

/**
 * The request header each capability deployed alone adds to its subrequest to the origin: the capabilities the
 * request has passed through, in order (`priority, images, binast` in a chain of three Workers).
 */
export const hopHeader = 'x-speedkit-hop';

/**
 * How a capability deployed alone reaches the site: `fetch(request)`, which on a route goes to the origin behind the
 * zone. Where nothing stands behind the Worker's own address (`wrangler dev` without `--local-upstream`, a
 * workers.dev deployment) that subrequest comes back to the same Worker, which fetches it again, thousands of times
 * for one visitor's request. Each capability marks its subrequests, and a request that already carries its own mark
 * is answered 508 with what to do instead of being fetched once more.
 * @param capability the `[env.*]` name, as it appears in the mark
 * @param otherFix another way out this capability has, said after the usual ones
 */
export function originFetch(capability: string, otherFix?: string): (request: Request) => Promise<Response> {
  const fix =
    'deploy it on a route in front of your site (routes in wrangler.toml), or run wrangler dev with ' +
    `--local-upstream <host:port>${otherFix ? `, or ${otherFix}` : ''}`;
  return async (request) => {
    const hops = (request.headers.get(hopHeader) ?? '')
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    if (hops.includes(capability)) {
      return json(
        {
          error: `the ${capability} Worker received its own request back: it has no origin behind it`,
          detail: { hops, fix },
        },
        { status: 508, headers: { 'cache-control': 'no-store' } },
      );
    }
    const headers = new Headers(request.headers);
    headers.set(hopHeader, [...hops, capability].join(', '));
    return fetch(new Request(request, { headers }));
  };
}
