import type { ModernFormat } from './formats';
import type { UrlOptions } from './options';

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
  if (options.format === 'auto') {
    if (autoFormat) image.format = autoFormat;
  } else if (options.format !== undefined && options.format !== 'json') {
    image.format = options.format;
  }
  return image;
}
