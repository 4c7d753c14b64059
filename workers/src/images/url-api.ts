import { json, jsonError } from '../shared/json';
import { parseAccept } from './accept';
import { toCloudflareImage } from './cf-image';
import type { ImagesConfig } from './config';
import { isCodecFormat, mimeTypes } from './formats';
import { isComplete, readImageHeader } from './header';
import { chooseFormat } from './negotiate';
import { canonicalOptions, parseOptions, type UrlOptions } from './options';
import { isIdentity, planResize } from './plan';
import { originalResponse, variantResponse } from './respond';
import { fetchSource, locateSource, readLimited, type SourceFetchers } from './source';
import { getVariant, putVariant, sourceIdentity, variantKey } from './store';
import { type TargetFormat, transformImage } from './transform';
import { ensureCodecs } from './wasm-modules';

export const urlApiPrefix = '/cdn-cgi/image/';

export interface UrlApiContext {
  readonly config: ImagesConfig;
  readonly bucket: R2Bucket | undefined;
  readonly ctx: ExecutionContext;
  readonly fetchers: SourceFetchers;
}

/**
 * `/cdn-cgi/image/<options>/<source>`: Cloudflare Image Resizing's URL format, encoded synchronously (the caller asked
 * for these exact pixels) and stored in R2 by source version + options + format. Misuse answers 4xx JSON naming the
 * problem; a source that cannot be transformed is served as it is (or redirected to with `onerror=redirect`).
 */
export async function handleUrlApi(request: Request, context: UrlApiContext): Promise<Response> {
  const { config } = context;
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return jsonError(
      405,
      'only GET and HEAD are allowed',
      { method: request.method },
      { headers: { allow: 'GET, HEAD' } },
    );
  }
  const url = new URL(request.url);
  const rest = url.pathname.slice(urlApiPrefix.length);
  const slash = rest.indexOf('/');
  if (slash < 0)
    return jsonError(400, 'the source image is missing', { expected: '/cdn-cgi/image/<options>/<source>' });
  let segment: string;
  try {
    segment = decodeURIComponent(rest.slice(0, slash));
  } catch {
    return jsonError(400, 'the options are not valid percent-encoding', { options: rest.slice(0, slash) });
  }
  const parsed = parseOptions(segment, config.maxOutputDimension);
  if (!parsed.ok) return jsonError(400, `invalid option ${parsed.error.option}: ${parsed.error.reason}`, parsed.error);
  const options = parsed.options;
  const located = locateSource(rest.slice(slash + 1) + url.search, url, config);
  if (!located.ok) return jsonError(located.problem.status, located.problem.error, located.problem.detail);
  const ranges = parseAccept(request.headers.get('accept'));
  if (config.engine === 'cloudflare' && options.format !== 'json') {
    const auto = options.format === 'auto' ? (chooseFormat(ranges, 'jpeg', config.formats) ?? undefined) : undefined;
    const transformed = await fetch(located.source.url, { cf: { image: toCloudflareImage(options, auto) } });
    if (!transformed.ok && options.onErrorRedirect) return Response.redirect(located.source.url.href, 302);
    return transformed;
  }
  const fetched = await fetchSource(located.source, config, context.fetchers, url);
  const redirect = () => Response.redirect(fetched.url.href, 302);
  if (!fetched.ok) {
    if (options.onErrorRedirect && fetched.problem.status !== 403) return redirect();
    return jsonError(fetched.problem.status, fetched.problem.error, fetched.problem.detail);
  }
  const origin = fetched.response;
  const vary = options.format === 'auto';
  const pass = (bytes: Uint8Array | null, note: string) => {
    console.log(`images: ${url.pathname} served as is: ${note}`);
    return options.onErrorRedirect ? redirect() : originalResponse(request, origin, bytes, note, vary);
  };
  const bytes = await readLimited(origin.clone(), config.maxInputBytes);
  if (!bytes) return pass(null, `over ${config.maxInputBytes} bytes`);
  const header = readImageHeader(bytes);
  if (options.format === 'json') {
    if (!header)
      return jsonError(415, 'the source is not a JPEG, PNG, GIF, WebP or AVIF image', { source: fetched.url.href });
    const plan = planResize(header, options, config.maxOutputDimension);
    const { width, height, animated } = header;
    return json({
      width,
      height,
      format: mimeTypes[header.format],
      bytes: bytes.byteLength,
      animated,
      output: { width: plan.width, height: plan.height },
    });
  }
  if (!header) return pass(bytes, 'not a decodable image');
  if (header.animated) return pass(bytes, 'animated');
  if (!isCodecFormat(header.format)) return pass(bytes, `${header.format} is passed through`);
  if (!isComplete(bytes, header.format)) return pass(bytes, 'truncated');
  if (header.width * header.height > config.maxInputMegapixels * 1e6)
    return pass(bytes, `over ${config.maxInputMegapixels} MP`);
  const plan = planResize(header, options, config.maxOutputDimension);
  const avifFits = plan.width * plan.height <= config.maxAvifMegapixels * 1e6;
  if (options.format === 'avif' && !avifFits) {
    const reason = `AVIF output is limited to ${config.maxAvifMegapixels} MP here; ask for a smaller size or another format`;
    return jsonError(400, `invalid option format: ${reason}`, { option: 'format', value: 'avif', reason });
  }
  const formats = avifFits ? config : { ...config, formats: config.formats.filter((format) => format !== 'avif') };
  const target = targetFormat(options, ranges, header.format, formats);
  const unchanged = isIdentity(plan, header) && target === header.format;
  if (unchanged) return originalResponse(request, origin, bytes, 'nothing to change', vary);
  try {
    const sourceId = await sourceIdentity(origin.headers, bytes);
    const key = await variantKey(sourceId, canonicalOptions(options), target);
    const format = target === 'baseline-jpeg' ? 'jpeg' : target;
    const stored = await getVariant(context.bucket, key);
    if (stored?.kind === 'not-smaller') return originalResponse(request, origin, bytes, 'variant not smaller', vary);
    if (stored?.kind === 'variant')
      return variantResponse(request, origin.headers, {
        bytes: stored.bytes,
        format,
        key,
        note: `${format}; stored`,
        vary,
      });
    await ensureCodecs();
    const encoded = await transformImage(
      { bytes, header: { ...header, format: header.format } },
      plan,
      target,
      options.quality,
    );
    // Same pixels in a negotiated format that came out larger: the original is the better answer. An explicitly
    // requested format is what the page asked for, larger or not.
    const keepOriginal = vary && isIdentity(plan, header) && encoded.byteLength >= bytes.byteLength;
    context.ctx.waitUntil(putVariant(context.bucket, key, keepOriginal ? null : encoded, mimeTypes[format]));
    if (keepOriginal) return originalResponse(request, origin, bytes, 'variant not smaller', vary);
    return variantResponse(request, origin.headers, { bytes: encoded, format, key, note: `${format}; encoded`, vary });
  } catch (error) {
    return pass(bytes, `transform failed: ${String(error)}`);
  }
}

/** `auto` = best the client accepts, else the source's format; unset = the source's format. */
function targetFormat(
  options: UrlOptions,
  ranges: ReturnType<typeof parseAccept>,
  source: TargetFormat,
  config: ImagesConfig,
): TargetFormat {
  switch (options.format) {
    case undefined:
    case 'json':
      return source;
    case 'auto':
      return chooseFormat(ranges, source === 'baseline-jpeg' ? 'jpeg' : source, config.formats) ?? source;
    default:
      return options.format;
  }
}
