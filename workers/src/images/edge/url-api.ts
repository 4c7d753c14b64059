import { parseAccept } from '../../shared/accept';
import { readColour } from '../../shared/image-header/colour-profile';
import { sniffImageFormat } from '../../shared/image-header/format';
import { readOrientation } from '../../shared/image-header/orientation';
import { type ImageHeader, readImageHeader } from '../../shared/image-header/whole-file';
import { json, jsonError } from '../../shared/json';
import { chooseFormat } from '../core/choose-format';
import type { ImagesConfig } from '../core/config';
import { holdsSize, type ImageFormat, maxSidePixels, mimeTypes, type TargetFormat } from '../core/formats';
import { type PassedImageType, passedImageType } from '../core/passed-formats';
import { isIdentity, planResize, type ResizePlan } from '../core/resize-plan';
import { checkSource, type SourceCheck, shownHeader, sourceKeyOptions } from '../core/source-checks';
import { looksLikeSvg } from '../core/svg';
import { canonicalOptions, parseOptions, type UrlOptions } from '../core/url-options';
import { type EncoderRung, planEncode, type WorkShape } from '../core/work-budget';
import { toCloudflareImage } from './cf-image';
import { getVariant, putVariant, sourceIdentity, variantKey } from './r2-store';
import { failedLatelyNote, recentFailures } from './recent-failures';
import { describeError, originalResponse, svgResponse, variantResponse } from './responses';
import {
  type Fetched,
  fetchSource,
  locateSource,
  type ReadSource,
  readSource,
  type SourceFetchers,
  type SourceLocation,
} from './source-fetch';
import type { CheckedSource } from './transform';
import { encodeOnce, encodeThroughGate } from './url-encode';

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
  const parsed = parseUrlApiRequest(request, config);
  if (parsed instanceof Response) return parsed;
  const { url, options, source } = parsed;
  const ranges = parseAccept(request.headers.get('accept'));
  if (config.engine === 'cloudflare' && options.format !== 'json') {
    return viaCloudflare(source, options, ranges, context, url);
  }
  const fetched = await fetchSource(source, config, context.fetchers, url);
  if (!fetched.ok) return sourceFailed(fetched, options);
  const reply: SourceReply = {
    request,
    url,
    options,
    sourceUrl: fetched.url,
    publicUrl: fetched.publicUrl,
    origin: fetched.response,
  };
  let read: ReadSource;
  try {
    read = await readSource(reply.origin.clone(), config.maxInputBytes);
  } catch (error) {
    return sourceBrokeOff(reply, error);
  }
  if (!read.complete) return passOversized(reply, read, config);
  const bytes = read.bytes;
  const header = readImageHeader(bytes);
  if (!header) {
    const passed = passedImageType(bytes);
    if (passed && options.format !== 'json')
      return passThrough(reply, bytes, passed, 'a format the codecs do not read');
    if (options.format === 'json' || !isSvg(reply, bytes)) return notAnImage(reply);
    return svgResponse(originalResponse(request, reply.origin, bytes, 'SVG, not resized', vary(reply)));
  }
  if (options.format === 'json') return describeImage(header, bytes, options, config);
  const checked = checkSource(bytes, header, config);
  if (!checked.ok) return passThrough(reply, bytes, header.format, checked.reason);
  const colour = await readColour(bytes, header.format);
  if (!colour.ok) return passThrough(reply, bytes, header.format, `colours: ${colour.reason}`);
  const decided = decideTransform(checked, options, ranges, config);
  if (decided instanceof Response) return options.onErrorRedirect ? redirectToSource(reply) : decided;
  if (decided === 'unchanged')
    return asImage(originalResponse(request, reply.origin, bytes, 'nothing to change', vary(reply)), header.format);
  if ('overBudget' in decided) return passThrough(reply, bytes, header.format, decided.overBudget);
  try {
    const source = {
      bytes,
      header: checked.header,
      orientation: checked.orientation,
      ...(colour.profile && { profile: colour.profile }),
    };
    return await serveVariant(reply, source, decided, context);
  } catch (error) {
    return passThrough(reply, bytes, header.format, `transform failed: ${describeError(error)}`);
  }
}

/** The request's options and source, or the 4xx that says what is wrong with it, before anything is fetched. */
function parseUrlApiRequest(
  request: Request,
  config: ImagesConfig,
): { url: URL; options: UrlOptions; source: SourceLocation } | Response {
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
  // Decoded option by option (parseOptions): a value may hold an encoded comma.
  const segment = rest.slice(0, slash);
  const located = locateSource(rest.slice(slash + 1) + url.search, url, config);
  // `onerror=redirect` is the page's safety net: an option this Worker does not take (Cloudflare has more) or a box
  // over the cap sends the browser to the source instead of a broken image, when the source itself is acceptable.
  const refuse = (answer: Response) =>
    located.ok && asksRedirectOnError(segment) ? Response.redirect(located.source.publicUrl.href, 302) : answer;
  const parsed = parseOptions(segment, config.maxOutputDimension);
  if (!parsed.ok)
    return refuse(jsonError(400, `invalid option ${parsed.error.option}: ${parsed.error.reason}`, parsed.error));
  const options = parsed.options;
  const boxTooLarge = refuseLargeBox(options, config);
  if (boxTooLarge) return refuse(boxTooLarge);
  if (!located.ok) return jsonError(located.problem.status, located.problem.error, located.problem.detail);
  return { url, options, source: located.source };
}

/** Whether the raw options segment holds `onerror=redirect`, read even when another option is refused. */
const asksRedirectOnError = (segment: string) =>
  segment.split(',').some((pair) => pair.trim().toLowerCase() === 'onerror=redirect');

/** What every answer about a fetched source needs: the request, its options and the origin's response. */
interface SourceReply {
  readonly request: Request;
  readonly url: URL;
  readonly options: UrlOptions;
  /** Where the source was finally fetched from (after redirects): part of its identity in the variant store. */
  readonly sourceUrl: URL;
  /** The same source as clients know it (`SourceLocation.publicUrl`): `onerror=redirect` sends them there. */
  readonly publicUrl: URL;
  readonly origin: Response;
}

/** `f=auto` answers differ by `Accept`. */
const vary = (reply: SourceReply) => reply.options.format === 'auto';

const redirectToSource = (reply: SourceReply) => Response.redirect(reply.publicUrl.href, 302);

/** The source could not be fetched: its 4xx/5xx JSON, or a redirect to it with `onerror=redirect` (never for 403). */
function sourceFailed(fetched: Extract<Fetched, { ok: false }>, options: UrlOptions): Response {
  if (options.onErrorRedirect && fetched.problem.status !== 403) return Response.redirect(fetched.publicUrl.href, 302);
  return jsonError(fetched.problem.status, fetched.problem.error, fetched.problem.detail);
}

/**
 * The source's body failed while it was read (the origin's connection dropped): a 502 like any other failed fetch,
 * or the redirect `onerror=redirect` asks for. Until 2026-11-28 a 500 "could not be processed", logged as a bug.
 */
function sourceBrokeOff(reply: SourceReply, error: unknown): Response {
  console.log(`images: ${reply.url.pathname}: the source broke off: ${describeError(error)}`);
  if (reply.options.onErrorRedirect) return redirectToSource(reply);
  return jsonError(502, 'the source broke off before its end', {
    source: reply.publicUrl.href,
    reason: describeError(error),
  });
}

function notAnImage(reply: SourceReply): Response {
  if (reply.options.onErrorRedirect) return redirectToSource(reply);
  return jsonError(415, 'the source is not a JPEG, PNG, GIF, WebP or AVIF image', {
    source: reply.publicUrl.href,
    contentType: reply.origin.headers.get('content-type'),
  });
}

const isSvg = (reply: SourceReply, bytes: Uint8Array) => looksLikeSvg(bytes, reply.origin.headers.get('content-type'));

/** Too large to look at whole: an image is passed through as it is; anything else never leaves as a document. */
async function passOversized(
  reply: SourceReply,
  read: Extract<ReadSource, { complete: false }>,
  config: ImagesConfig,
): Promise<Response> {
  await reply.origin.body?.cancel();
  const format = sniffImageFormat(read.head) ?? passedImageType(read.head);
  if (!format) return notAnImage(reply);
  // `format=json` asked for a description, which needs the whole file; the image itself is no answer to it.
  if (reply.options.format === 'json') {
    return jsonError(413, `the source is over ${config.maxInputBytes} bytes, too large to describe`, {
      source: reply.publicUrl.href,
      maxInputBytes: config.maxInputBytes,
      format: typeOf(format),
    });
  }
  const note = `over ${config.maxInputBytes} bytes`;
  console.log(`images: ${reply.url.pathname} served as is: ${note}`);
  if (reply.options.onErrorRedirect) return redirectToSource(reply);
  const response = originalResponse(reply.request, new Response(read.body, reply.origin), null, note, vary(reply));
  return asImage(response, format);
}

/** The original, logged with the reason it was not transformed (or a redirect to it with `onerror=redirect`). */
function passThrough(
  reply: SourceReply,
  bytes: Uint8Array,
  format: ImageFormat | PassedImageType,
  note: string,
): Response {
  console.log(`images: ${reply.url.pathname} served as is: ${note}`);
  if (reply.options.onErrorRedirect) return redirectToSource(reply);
  return asImage(originalResponse(reply.request, reply.origin, bytes, note, vary(reply)), format);
}

/**
 * `format=json`: the source's header and the size it would be resized to, both as shown (a JPEG's EXIF turn
 * applied, as browsers apply it to `naturalWidth`).
 */
function describeImage(stored: ImageHeader, bytes: Uint8Array, options: UrlOptions, config: ImagesConfig): Response {
  const orientation = readOrientation(bytes, stored.format);
  const header = orientation.ok ? shownHeader(stored, orientation.value) : stored;
  const plan = planResize(header, options, config.maxOutputDimension, config.maxOutputMegapixels * 1e6);
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

/** What to encode: the resize plan, the output format and the encoder setting that fits the budget. */
interface TransformDecision {
  readonly plan: ResizePlan;
  readonly target: TargetFormat;
  readonly rung: EncoderRung;
  /** The full-effort setting was over the budget; `rung` is a faster one. */
  readonly reduced: boolean;
  /** The source's pixels as they were (no resize, no background): an encode no smaller may lose to the original. */
  readonly samePixels: boolean;
}

/**
 * The output size and format within the limits, 'unchanged' when nothing would change, or the 400 naming the limit
 * the request is over (output megapixels, AVIF size, CPU budget). No I/O.
 */
function decideTransform(
  checked: Extract<SourceCheck, { ok: true }>,
  options: UrlOptions,
  ranges: ReturnType<typeof parseAccept>,
  config: ImagesConfig,
): TransformDecision | 'unchanged' | { readonly overBudget: string } | Response {
  // The size as shown: a turned JPEG's width is its stored height.
  const { header } = checked;
  const plan = planResize(header, options, config.maxOutputDimension, config.maxOutputMegapixels * 1e6);
  if (plan.width * plan.height > config.maxOutputMegapixels * 1e6) return outputTooLarge(plan, config);
  const avifFits = plan.width * plan.height <= config.maxAvifMegapixels * 1e6;
  const encodePlan = (format: TargetFormat) => {
    const shape: WorkShape = {
      source: header,
      jpegScans: checked.jpegScans,
      resized: !isIdentity(plan, header),
      output: plan,
      target: format,
    };
    return planEncode(shape, config.maxWorkMs);
  };
  // `auto` drops formats that are over the budget even at their fastest encoder setting (AVIF first), like those
  // over the AVIF size limit.
  const affordable = config.formats.filter(
    (format) => (format !== 'avif' || avifFits) && holdsSize(format, plan) && encodePlan(format).ok,
  );
  const asked = targetFormat(options, ranges, header.format, { ...config, formats: affordable });
  // Cloudflare's `format=avif` is "AVIF if possible, with WebP as a fallback": over the AVIF size limit or over the
  // budget at AVIF's fastest setting it is WebP, as for `auto` (until 2026-11-29 a 400, a broken image on the page).
  const target = asked === 'avif' && !(avifFits && encodePlan('avif').ok) ? 'webp' : asked;
  // A background changes any format with alpha (only JPEG has none), even at the same size and format.
  const underlaid = options.background !== undefined && header.format !== 'jpeg';
  const samePixels = isIdentity(plan, header) && !underlaid;
  if (samePixels && target === header.format) return 'unchanged';
  if (!holdsSize(target, plan)) {
    const reason = `${target} holds at most ${maxSidePixels[target]} px per side; the output would be ${plan.width}x${plan.height}`;
    return jsonError(400, `invalid option format: ${reason}`, { option: 'format', value: target, reason });
  }
  const chosen = encodePlan(target);
  if (!chosen.ok) {
    const cost = chosen.estimate;
    // No format named (the source's is kept) or `auto`: nothing asked for this encoder, and the budget is this
    // deployment's, not the page's mistake. The original, as negotiation serves it; until 2026-11-28 a 400, a broken
    // image wherever Cloudflare's srcset pattern (`fit=contain,width=1280` …) asked a 1 MP JPEG for a wide screen.
    if (options.format === undefined || options.format === 'auto') {
      return {
        overBudget: `over the work budget of ${config.maxWorkMs} ms (${target} estimated at ${cost.totalMs} ms)`,
      };
    }
    const reason = `this transform is estimated at ${cost.totalMs} ms of CPU even at the fastest encoder setting, over the budget of ${config.maxWorkMs} ms; ask for fewer pixels or another format`;
    return jsonError(400, `invalid option format: ${reason}`, {
      option: 'format',
      value: target,
      reason,
      estimate: cost,
    });
  }
  return { plan, target, rung: chosen.rung, reduced: chosen.reduced, samePixels };
}

/**
 * The variant from R2, or encoded now (through the transform gate) and stored. Throws when the encoder fails; the
 * caller serves the original then, and so does every request for the same variant in this isolate for a while
 * (`recentFailures`) without decoding again.
 */
async function serveVariant(
  reply: SourceReply,
  source: CheckedSource,
  decision: TransformDecision,
  context: UrlApiContext,
): Promise<Response> {
  const { target, rung, reduced, samePixels } = decision;
  const { request, origin, options } = reply;
  const { bytes, header } = source;
  const { config } = context;
  const sourceId = await sourceIdentity(reply.sourceUrl.href, origin.headers.get('etag'), bytes);
  // A reduced encoder setting is part of the key (full effort keeps the key it always had), and of the note.
  const kept = sourceKeyOptions(source.orientation, !!source.profile);
  const keyOptions = `${canonicalOptions(options)}${kept}${reduced ? `,enc=${rung.id}` : ''}`;
  const key = await variantKey(sourceId, keyOptions, target);
  const settingNote = reduced ? ` (${rung.id}: full effort over budget)` : '';
  const format = target === 'baseline-jpeg' ? 'jpeg' : target;
  // One key per output, whoever asked: `format=auto` stores a marker where the same pixels came out no smaller, and an
  // explicit format stores the bytes it asked for, larger or not. Each judges the other's entry by its own rule (a
  // marker once made an explicit `f=webp` answer with the JPEG).
  const original = () =>
    asImage(originalResponse(request, origin, bytes, 'variant not smaller', vary(reply)), header.format);
  const prefersOriginal = (variantBytes: number) => vary(reply) && samePixels && variantBytes >= bytes.byteLength;
  const stored = await getVariant(context.bucket, key);
  if (stored?.kind === 'not-smaller' && vary(reply)) return original();
  if (stored?.kind === 'variant' && prefersOriginal(stored.bytes.byteLength)) return original();
  if (stored?.kind === 'variant')
    return variantResponse(request, origin.headers, {
      bytes: stored.bytes,
      format,
      key,
      note: `${format}; stored${settingNote}`,
      vary: vary(reply),
    });
  // Waits for a shared encode as long as that one may wait for its slot plus many times the work budget (an estimate,
  // not wall time on a busy machine), then encodes on its own.
  const sharedWaitMs = config.queueWaitMs + 10 * config.maxWorkMs;
  const failedLately = recentFailures.recent(key);
  if (failedLately) return passThrough(reply, bytes, header.format, failedLatelyNote(failedLately));
  const encoded = await encodeOnce(
    key,
    () =>
      encodeThroughGate(source, decision, options, config).catch((error: unknown) => {
        recentFailures.remember(key, describeError(error));
        throw error;
      }),
    sharedWaitMs,
  );
  if (!encoded) {
    console.log(
      `images: ${reply.url.pathname} refused: ${config.maxConcurrentTransforms} transform(s) already running`,
    );
    if (options.onErrorRedirect) return redirectToSource(reply);
    return busy(config);
  }
  // Same pixels in a negotiated format that came out larger: the original is the better answer. An explicitly
  // requested format is what the page asked for, larger or not.
  const keepOriginal = prefersOriginal(encoded.byteLength);
  context.ctx.waitUntil(putVariant(context.bucket, key, keepOriginal ? null : encoded, mimeTypes[format]));
  if (keepOriginal) return original();
  return variantResponse(request, origin.headers, {
    bytes: encoded,
    format,
    key,
    note: `${format}; encoded${settingNote}`,
    vary: vary(reply),
  });
}

/** 400 naming the output size that is over `IMAGES_MAX_OUTPUT_MEGAPIXELS`. */
function outputTooLarge(size: { width: number; height: number }, config: ImagesConfig): Response {
  const megapixels = (size.width * size.height) / 1e6;
  const reason = `the output would be ${size.width}x${size.height} (${megapixels.toFixed(1)} MP); at most ${config.maxOutputMegapixels} MP`;
  return jsonError(400, `invalid option width/height: ${reason}`, {
    option: 'width/height',
    value: `${size.width}x${size.height}`,
    reason,
  });
}

/**
 * `fit=pad` and `fit=cover` with both sides always produce exactly the (clamped) box, so an oversized box is refused
 * before the source is even fetched: a flood of such requests costs no source reads and no header walks.
 */
function refuseLargeBox(options: UrlOptions, config: ImagesConfig): Response | null {
  if ((options.fit !== 'pad' && options.fit !== 'cover') || options.width === undefined || options.height === undefined)
    return null;
  const box = planResize({ width: options.width, height: options.height }, options, config.maxOutputDimension);
  return box.width * box.height > config.maxOutputMegapixels * 1e6 ? outputTooLarge(box, config) : null;
}

/** Seconds a refused client is asked to wait: about one transform's worth. */
const retryAfterSeconds = 1;

/** 503 + Retry-After: every transform slot of this isolate is taken and none freed up in time. */
function busy(config: ImagesConfig): Response {
  return jsonError(
    503,
    'the image service is busy; retry shortly',
    { maxConcurrentTransforms: config.maxConcurrentTransforms, queueWaitMs: config.queueWaitMs, retryAfterSeconds },
    { headers: { 'retry-after': String(retryAfterSeconds), 'cache-control': 'no-store' } },
  );
}

/** A format's MIME type; a passed-through format (`passedImageType`) is named by its type already. */
const typeOf = (format: ImageFormat | PassedImageType) =>
  format.includes('/') ? format : mimeTypes[format as ImageFormat];

/**
 * The original bytes as the image they are: the sniffed format's type (an origin's `text/html` on JPEG bytes must
 * not reach a browser as a page) and `nosniff`.
 */
function asImage(response: Response, format: ImageFormat | PassedImageType): Response {
  const headers = new Headers(response.headers);
  headers.set('content-type', typeOf(format));
  headers.set('x-content-type-options', 'nosniff');
  headers.delete('content-disposition');
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * `IMAGES_ENGINE=cloudflare`: the transform happens on Cloudflare's side (`cf.image`), but the redirects are still
 * followed here, hop by hop, each checked against the allow-list like the Wasm engine's.
 */
async function viaCloudflare(
  source: SourceLocation,
  options: UrlOptions,
  ranges: ReturnType<typeof parseAccept>,
  context: UrlApiContext,
  url: URL,
): Promise<Response> {
  const auto =
    options.format === 'auto' ? (chooseFormat(ranges, 'jpeg', context.config.formats) ?? undefined) : undefined;
  const fetched = await fetchSource(source, context.config, context.fetchers, url, {
    cf: { image: toCloudflareImage(options, auto) },
    alwaysNetwork: true,
  });
  return fetched.ok ? fetched.response : sourceFailed(fetched, options);
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
