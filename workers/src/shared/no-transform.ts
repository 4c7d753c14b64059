/**
 * Whether the origin's `Cache-Control: no-transform` forbids any change to its body (RFC 9111 §5.2.2.6): the content
 * Workers then pass the response on byte for byte.
 */
export const forbidsTransform = (response: Response): boolean =>
  /\bno-transform\b/i.test(response.headers.get('cache-control') ?? '');
