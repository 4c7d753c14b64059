/**
 * An R2 bucket as the image origin (`IMAGES_SOURCE` binding in standalone mode): `GET /photos/a.jpg` reads the object
 * `photos/a.jpg`, with its stored Content-Type, its ETag and Last-Modified, so negotiation and the variant keys work
 * exactly as with an HTTP origin. Conditional and range requests are left to the caching layer in front.
 */
export function r2Origin(bucket: R2Bucket): (request: Request) => Promise<Response> {
  return async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return new Response('method not allowed', { status: 405, headers: { allow: 'GET, HEAD' } });
    }
    let key: string;
    try {
      key = decodeURIComponent(new URL(request.url).pathname.slice(1));
    } catch {
      return new Response('bad path', { status: 400 });
    }
    const object = key === '' ? null : await bucket.get(key);
    if (!object) return new Response('not found', { status: 404 });
    const headers = new Headers();
    object.writeHttpMetadata(headers);
    headers.set('etag', object.httpEtag);
    headers.set('last-modified', object.uploaded.toUTCString());
    headers.set('content-length', String(object.size));
    return new Response(request.method === 'HEAD' ? null : object.body, { headers });
  };
}
