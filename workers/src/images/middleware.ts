import { etagMatches, isNotModified, notModified, withoutConditionals } from '../shared/conditional';
import { jsonError } from '../shared/json';
import type { Middleware } from '../shared/middleware';
import { readConfig } from './core/config';
import { judgesConditions } from './core/revalidation';
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
      const served = await handleUrlApi(request, { config, bucket, ctx, fetchers: { own: next, network } });
      // The source is fetched without the visitor's validators; an original served in place of a variant answers
      // them here by its ETag, as a variant does (variantResponse).
      return answerByEtag(request, served);
    } catch (error) {
      // Every expected failure is handled inside (4xx JSON or the original); reaching this is a bug: say so.
      console.error(`images: URL API failed unexpectedly: ${String(error)}`);
      return jsonError(500, 'the image could not be processed', { reason: String(error) });
    }
  }
  const judged = judgesConditions({ method: request.method, pathname: url.pathname, headers: request.headers }, config);
  const response = await next(judged ? withoutConditionals(request) : request);
  let served: Response;
  try {
    served = await negotiateImage(request, response, { config, bucket, ctx });
  } catch (error) {
    // negotiateImage catches its own failures; this guards against a bug before it has read the body.
    console.error(`images: negotiation failed, passing the response through: ${String(error)}`);
    served = response;
  }
  return judged ? answerConditions(request, response, served) : served;
};

/** A 304 when the client already holds `served` by its ETag (the weak comparison of If-None-Match). */
async function answerByEtag(request: Request, served: Response): Promise<Response> {
  if (served.status !== 200 || !etagMatches(request.headers.get('if-none-match'), served.headers.get('etag'))) {
    return served;
  }
  await served.body?.cancel();
  return notModified(served, ['x-speedkit-image']);
}

/**
 * The conditions the origin did not see, judged against what is served. The original (the origin's ETag kept) by
 * RFC 9110 as the origin would have; a variant or a `cf.image` answer by its own ETag only, never by a date, since
 * a Last-Modified copied from the origin would let a date saved with the original stand for the variant.
 */
async function answerConditions(request: Request, origin: Response, served: Response): Promise<Response> {
  if (served.status !== 200) return served;
  const etag = served.headers.get('etag');
  const isOriginal = etag === origin.headers.get('etag');
  if (!isOriginal) return answerByEtag(request, served);
  if (!isNotModified(request, served)) return served;
  await served.body?.cancel();
  return notModified(served, ['x-speedkit-image']);
}
