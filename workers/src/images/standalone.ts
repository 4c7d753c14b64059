import { originFetch } from '../shared/origin-fetch';
import { readConfig } from './core/config';
import { r2Origin } from './edge/r2-origin';
import { imagesMiddleware } from './middleware';

/** Optional binding: images served from an R2 bucket instead of an HTTP origin. */
type SourceBucket = { IMAGES_SOURCE?: R2Bucket };

/**
 * The image capability deployed alone (`npm run deploy -- --env images`) in front of a site owner's origin:
 * requests go to the origin with `fetch(request)` (or to `IMAGES_ORIGIN` when set, e.g. on workers.dev, or to the
 * `IMAGES_SOURCE` R2 bucket when bound) and image responses come back in the best format the browser accepts.
 */
export default {
  fetch(request, env, ctx) {
    const bucket = (env as unknown as SourceBucket).IMAGES_SOURCE;
    if (bucket) return imagesMiddleware(request, env, ctx, r2Origin(bucket));
    const { origin } = readConfig(env as unknown as Record<string, unknown>);
    // Marked as this capability's: a request that comes back (no origin behind the route, or IMAGES_ORIGIN naming
    // the Worker itself) is answered 508 instead of fetched again.
    const guarded = originFetch('images', "set IMAGES_ORIGIN to your origin's URL");
    const toOrigin = (originRequest: Request) =>
      guarded(
        origin === null ? originRequest : new Request(originUrl(new URL(originRequest.url), origin), originRequest),
      );
    return imagesMiddleware(request, env, ctx, toOrigin);
  },
} satisfies ExportedHandler<Env>;

/**
 * The request's path and query on `IMAGES_ORIGIN`. Set on the origin's URL, never parsed against it: a path of two
 * slashes (`//evil.example/x.html`) parses as another host, which the Worker would fetch and serve as the site's.
 */
export function originUrl(requestUrl: URL, origin: string): URL {
  const url = new URL(origin);
  url.pathname = requestUrl.pathname;
  url.search = requestUrl.search;
  return url;
}
