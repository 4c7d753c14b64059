// Whether an origin response may name its stored variants by URL and ETag, which lets a later request for the same
// URL be answered from the store without its body being read. A response meant for one visitor (RFC 9111 §3, §3.5:
// `private`, `no-store`, or a reply to an `Authorization` request without `public`, `s-maxage` or `must-revalidate`;
// cookies do not count, as for any shared cache, or no image of a site with analytics cookies would) may differ from the
// next visitor's under the same URL and an ETag that only counts mtime and size, so its variants are named by a hash
// of its bytes instead: a visitor can then only ever get the variant of bytes the origin sent them.

const directives = (value: string | null) =>
  new Set(
    (value ?? '')
      .toLowerCase()
      .split(',')
      .map((part) => part.split('=')[0]?.trim() ?? '')
      .filter(Boolean),
  );

/** Whether the response may be shared with other visitors by URL and validators. */
export function isSharedResponse(
  requestHeaders: { get(name: string): string | null },
  responseHeaders: { get(name: string): string | null },
): boolean {
  const cacheControl = directives(responseHeaders.get('cache-control'));
  if (cacheControl.has('private') || cacheControl.has('no-store')) return false;
  if (requestHeaders.get('authorization') === null) return true;
  return ['public', 's-maxage', 'must-revalidate'].some((directive) => cacheControl.has(directive));
}
