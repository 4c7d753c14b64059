import { jsonError } from '../shared/json';
import type { Middleware } from '../shared/middleware';
import { readConfig } from './core/config';
import { negotiateImage } from './edge/negotiate-response';
import { handleUrlApi, urlApiPrefix } from './edge/url-api';

/**
 * The image capability: `/cdn-cgi/image/<options>/<source>` answered here; every other response from `next` (the
 * static assets, or the site owner's origin when deployed alone) negotiated by `Accept` when it is an image.
 */
export const imagesMiddleware: Middleware = async (request, env, ctx, next) => {
  const config = readConfig(env as unknown as Record<string, unknown>);
  const url = new URL(request.url);
  const bucket = env.VARIANTS;
  if (url.pathname.startsWith(urlApiPrefix)) {
    const network = (source: Request) => fetch(source);
    try {
      return await handleUrlApi(request, { config, bucket, ctx, fetchers: { own: next, network } });
    } catch (error) {
      // Every expected failure is handled inside (4xx JSON or the original); reaching this is a bug: say so.
      console.error(`images: URL API failed unexpectedly: ${String(error)}`);
      return jsonError(500, 'the image could not be processed', { reason: String(error) });
    }
  }
  const response = await next(request);
  try {
    return await negotiateImage(request, response, { config, bucket, ctx });
  } catch (error) {
    // negotiateImage catches its own failures; this guards against a bug before it has read the body.
    console.error(`images: negotiation failed, passing the response through: ${String(error)}`);
    return response;
  }
};
