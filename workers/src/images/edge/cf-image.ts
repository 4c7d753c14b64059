import type { ModernFormat } from '../core/formats';
import type { UrlOptions } from '../core/url-options';
import { varyOnAccept } from './responses';

/**
 * Translates validated URL options into `fetch(url, { cf: { image } })` options, for zones where Cloudflare's Image
 * Resizing is enabled (`IMAGES_ENGINE=cloudflare`): the same URL API, transformed on Cloudflare's side instead of in
 * our Wasm codecs. `format=auto` is resolved by us (from Accept) because `cf.image` wants a concrete format, and
 * `onerror=redirect` is applied by the caller (`cf.image` has no such field).
 */
export function toCloudflareImage(
  options: UrlOptions,
  autoFormat: ModernFormat | undefined,
): RequestInitCfPropertiesImage {
  const image: RequestInitCfPropertiesImage = {
    fit: options.fit,
    quality: options.quality,
    dpr: options.dpr,
    gravity: options.gravity,
    metadata: options.metadata,
    anim: options.anim,
  };
  if (options.width !== undefined) image.width = options.width;
  if (options.height !== undefined) image.height = options.height;
  if (options.sharpen > 0) image.sharpen = options.sharpen;
  if (options.background) {
    const [red, green, blue, alpha] = options.background;
    image.background = `rgba(${red},${green},${blue},${alpha / 255})`;
  }
  if (options.format === 'auto') {
    if (autoFormat) image.format = autoFormat;
  } else if (options.format !== undefined && options.format !== 'json') {
    image.format = options.format;
  }
  return image;
}

/**
 * `IMAGES_ENGINE=cloudflare` for Accept negotiation: asks Cloudflare to convert the same URL to the chosen format.
 * Any failure serves the origin's response instead (the contract of every content Worker).
 */
export async function negotiateOnCloudflare(
  request: Request,
  original: Response,
  format: ModernFormat,
): Promise<Response> {
  const withVary = (response: Response) => {
    const headers = new Headers(response.headers);
    varyOnAccept(headers);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  };
  try {
    const transformed = await fetch(request.url, { cf: { image: { format } } });
    if (transformed.ok) {
      await original.body?.cancel();
      return withVary(transformed);
    }
    await transformed.body?.cancel();
    console.warn(`images: cf.image answered ${transformed.status} for ${request.url}, serving the original`);
  } catch (error) {
    console.warn(`images: cf.image failed for ${request.url}, serving the original: ${String(error)}`);
  }
  return withVary(original);
}
