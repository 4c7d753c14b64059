import { readConfig } from './config';
import { imagesMiddleware } from './middleware';

/**
 * The image capability deployed alone (`npm run deploy -- --env images`) on a route in front of a site owner's
 * origin: requests go to the origin with `fetch(request)` (or to `IMAGES_ORIGIN` when set, e.g. on workers.dev) and
 * image responses come back in the best format the browser accepts.
 */
export default {
  fetch(request, env, ctx) {
    const { origin } = readConfig(env as unknown as Record<string, unknown>);
    const toOrigin = (originRequest: Request) => {
      if (origin === null) return fetch(originRequest);
      const url = new URL(originRequest.url);
      return fetch(new Request(new URL(url.pathname + url.search, origin), originRequest));
    };
    return imagesMiddleware(request, env, ctx, toOrigin);
  },
} satisfies ExportedHandler<Env>;
