// Whether an origin response may be stored for other visitors under its URL and validators (RFC 9111 §3, §3.5, §4.1):
// not `private`, not `no-store`, not a reply to an `Authorization` request unless it says `public`, `s-maxage` or
// `must-revalidate`, no `Set-Cookie` (it starts or changes one visitor's session, and Cloudflare's cache does not store
// such responses either), and no `Vary` on `*`, `Cookie` or `Authorization` (the origin says the bytes depend on who
// asks, and our keys do not hold those headers). Request cookies alone do not count, as for any shared cache, or no
// image or script of a site with analytics cookies would be. A response meant for one visitor may differ from the next
// visitor's under the same URL and an ETag that only counts mtime and size, so the content Workers never answer another
// visitor from what it left: images name its variants by a hash of its bytes, BinaryAST serves it as JavaScript
// without storing an encoding.

const directives = (value: string | null) =>
  new Set(
    (value ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.split('=')[0]?.trim() ?? '')
      .filter(Boolean),
  );

/** `Vary` fields that make a response one visitor's: what our keys cannot tell apart. */
const visitorFields = ['*', 'cookie', 'authorization'];

/** Whether the response may be shared with other visitors by URL and validators. */
export function isSharedResponse(
  requestHeaders: { get(name: string): string | null },
  responseHeaders: { get(name: string): string | null },
): boolean {
  const cacheControl = directives(responseHeaders.get('cache-control'));
  if (cacheControl.has('private') || cacheControl.has('no-store')) return false;
  if (responseHeaders.get('set-cookie') !== null) return false;
  const vary = (responseHeaders.get('vary') ?? '').toLowerCase().split(',');
  if (vary.some((field) => visitorFields.includes(field.trim()))) return false;
  if (requestHeaders.get('authorization') === null) return true;
  return ['public', 's-maxage', 'must-revalidate'].some((directive) => cacheControl.has(directive));
}
