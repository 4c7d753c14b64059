import { parseAccept } from '../../shared/accept';
import { ExpiringClaims } from '../../shared/expiring-claims';
import { readColour } from '../../shared/image-header/colour-profile';
import { jpegDensityCorrectedSize } from '../../shared/image-header/density';
import type { Orientation } from '../../shared/image-header/orientation';
import { readImageHeader } from '../../shared/image-header/whole-file';
import { readLimited } from '../../shared/read-limited';
import { sha256Hex } from '../../shared/sha256';
import { isSharedResponse } from '../../shared/shared-cache';
import { acceptableFormats } from '../core/choose-format';
import { type ImagesConfig, onImageRoute } from '../core/config';
import { allowsVariant } from '../core/disposition';
import { holdsSize, type ImageFormat, type ModernFormat, mimeTypes } from '../core/formats';
import { looksLikeGraphic, losslessWins } from '../core/lossless';
import type { Pixels } from '../core/pixels';
import { planResize } from '../core/resize-plan';
import { checkSource, isLossless, sourceKeyOptions } from '../core/source-checks';
import { claimedFormat } from '../core/source-type';
import { type EncoderRung, estimateWork, losslessWebpRung, planEncode } from '../core/work-budget';
import { negotiateOnCloudflare } from './cf-image';
import { type CheckedOk, headerIdentity, knownCheck, rememberCheck } from './known-sources';
import { getVariant, putVariant, sourceIdentity, variantKey } from './r2-store';
import { failedLatelyNote, recentFailures } from './recent-failures';
import { describeError, originalResponse, variantResponse, varyOnAccept } from './responses';
import { type CheckedSource, decodeChecked, transformImage } from './transform';
import { defaultLeaseMs, transformGate } from './transform-gate';
import { ensureCodecs } from './wasm-modules';

const gate = (config: ImagesConfig) =>
  transformGate({ maxConcurrent: config.maxConcurrentTransforms, maxQueued: config.maxQueuedTransforms });

/** Background encodes running in this isolate, so a burst of requests for one image starts one encode. */
const inFlight = new ExpiringClaims(defaultLeaseMs);

/** Options string for negotiated variants: same pixels, default quality. */
const negotiatedOptions = 'negotiated,q=85';
const negotiatedQuality = 85;

/** Context the negotiation needs besides the request and the origin's response. */
export interface NegotiationContext {
  readonly config: ImagesConfig;
  readonly bucket: R2Bucket | undefined;
  readonly ctx: ExecutionContext;
}

/**
 * Serves the best format the client accepts for an image response from the origin or assets: AVIF, else WebP, else
 * the original. Passes the response through untouched when it is not a plain 200 image on a configured route, and
 * serves the original (with `Vary: Accept`) whenever it is in doubt: too large, animated, corrupt, or when the
 * re-encode is not smaller. In background mode AVIF is encoded in `ctx.waitUntil` and stored in R2.
 */
export async function negotiateImage(
  request: Request,
  response: Response,
  context: NegotiationContext,
): Promise<Response> {
  const { config } = context;
  const sourceFormat = negotiableFormat(request, response, config);
  if (!sourceFormat) return response;
  const formats = acceptableFormats(parseAccept(request.headers.get('accept')), sourceFormat, config.formats);
  if (formats.length === 0 || response.headers.has('content-encoding')) return withVaryOnAccept(response);
  if (config.engine === 'cloudflare') {
    return request.method === 'HEAD'
      ? withVaryOnAccept(response)
      : negotiateOnCloudflare(request, response, formats[0] ?? 'webp');
  }
  const stored = await storedVariantOfKnownSource(request, response, formats, context);
  if (stored) return stored;
  // A HEAD gets the headers a GET would get when the variant is stored (above); otherwise the original's, since
  // finding out what a GET would get could cost a full encode.
  if (request.method === 'HEAD') return withVaryOnAccept(response);
  const bytes = await readLimited(response.clone(), config.maxInputBytes);
  if (!bytes) return originalResponse(request, response, null, `over ${config.maxInputBytes} bytes`, true);
  const header = readImageHeader(bytes);
  const pass = (note: string) => {
    console.log(`images: ${new URL(request.url).pathname} served as is: ${note}`);
    return originalResponse(request, response, bytes, note, true);
  };
  if (!header || header.format !== sourceFormat) return pass('not a decodable image');
  const checked = checkSource(bytes, header, config);
  if (!checked.ok) return pass(checked.reason);
  // Same pixels, another size on the page: a variant without the EXIF would lay out at its pixel size. (The URL API
  // resizes to the size it is asked for, in pixels, and drops the EXIF as Cloudflare does.)
  const densitySize = header.format === 'jpeg' ? jpegDensityCorrectedSize(bytes, header) : null;
  if (densitySize) {
    return pass(
      `EXIF density: shown at ${densitySize.width}x${densitySize.height}, not its ${header.width}x${header.height} pixels`,
    );
  }
  const colour = await readColour(bytes, header.format);
  if (!colour.ok) return pass(`colours: ${colour.reason}`);
  // Remembered only when the headers name this very body (a declared Content-Length was the length actually read).
  const identity = sharedIdentity(request, response);
  if (identity && identity === (await negotiatedIdentity(request, response, bytes))) {
    rememberCheck(identity, { ...checked, keepsProfile: !!colour.profile });
  }
  const { width, height } = checked.header;
  if (!formats.some((format) => holdsSize(format, checked.header)))
    return pass(`${width}x${height}: more pixels per side than ${formats.join(' or ')} can hold`);
  const candidates = affordableFormats(formats, checked, config);
  if (candidates.length === 0) return pass(`over the work budget of ${config.maxWorkMs} ms`);
  const sourceId = await negotiatedIdentity(request, response, bytes);
  try {
    const source: NegotiatedSource = {
      bytes,
      header: checked.header,
      orientation: checked.orientation,
      ...(colour.profile && { profile: colour.profile }),
      judgedLossless: judgesLossless(checked, config),
    };
    const served = await firstSmallerVariant(request, response, source, sourceId, candidates, context);
    if (served === 'busy') return pass(`busy: ${config.maxConcurrentTransforms} transform(s) already running`);
    if (served && 'failedLately' in served) return pass(failedLatelyNote(served.failedLately));
    if (served) return served;
    return pass(
      formats.includes('avif') && config.avifMode === 'background'
        ? 'variant pending, not smaller or kept lossless'
        : 'variant not smaller or kept lossless',
    );
  } catch (error) {
    return pass(`transform failed: ${describeError(error)}`);
  }
}

/**
 * The failure memo's key for a source whose decode failed: a digest of its identity (which holds its URL). Only the
 * decode is remembered: it fails the same way for every format, while an encoder's failure (a trap, a codec that
 * could not start under memory pressure) may be one format's, or passing, and must not keep other formats from
 * visitors for minutes.
 */
const decodeFailureKey = (sourceId: string) => sha256Hex(`decode|${sourceId}`);

/**
 * A repeat request for a source this isolate has already read and checked (same ETag and Content-Length): its
 * stored variant straight from R2, the origin's body cancelled unread. Reading the whole source again only to find
 * the same key cost the LCP image of the Speed Page's demo 0.1–0.4 s before its first byte with the variant already
 * stored, more with an origin far away. Null, and the full path runs, when the source is unknown or the first
 * candidate has no stored variant yet (the full path then schedules or encodes it, as on a first request).
 */
async function storedVariantOfKnownSource(
  request: Request,
  response: Response,
  formats: readonly ModernFormat[],
  context: NegotiationContext,
): Promise<Response | null> {
  const identity = sharedIdentity(request, response);
  const checked = identity ? knownCheck(identity) : undefined;
  if (!identity || !checked) return null;
  for (const candidate of affordableFormats(formats, checked, context.config)) {
    const key = await variantKey(
      identity,
      optionsFor(candidate, checked.orientation, checked.keepsProfile, judgesLossless(checked, context.config)),
      candidate.format,
    );
    const stored = await getVariant(context.bucket, key);
    if (stored?.kind === 'not-smaller') continue;
    if (stored?.kind !== 'variant') return null;
    await response.body?.cancel();
    return storedVariantResponse(request, response, stored.bytes, candidate, key);
  }
  return null;
}

/** The identity of a shared response from its headers (null for one meant for one visitor: `isSharedResponse`). */
const sharedIdentity = (request: Request, response: Response) =>
  isSharedResponse(request.headers, response.headers) ? headerIdentity(request.url, response.headers) : null;

/** The source's identity once its body is read: by URL and ETag when shared, else by a hash of the bytes. */
const negotiatedIdentity = (request: Request, response: Response, bytes: Uint8Array) => {
  const shared = isSharedResponse(request.headers, response.headers);
  const etag = shared ? response.headers.get('etag') : null;
  return sourceIdentity(request.url, etag, bytes, response.headers.has('content-length'));
};

/**
 * The source's format when this response may be negotiated: a plain 200 GET/HEAD image on a configured route, no
 * range request, no `no-transform`, not a download (core/disposition.ts); null to pass it through untouched.
 */
function negotiableFormat(request: Request, response: Response, config: ImagesConfig): ImageFormat | null {
  const { pathname } = new URL(request.url);
  const sourceFormat = claimedFormat(
    response.headers.get('content-type'),
    pathname,
    request.headers.get('sec-fetch-dest'),
  );
  if (
    (request.method !== 'GET' && request.method !== 'HEAD') ||
    request.headers.has('range') ||
    response.status !== 200 ||
    !sourceFormat ||
    !onImageRoute(pathname, config) ||
    /\bno-transform\b/i.test(response.headers.get('cache-control') ?? '') ||
    !allowsVariant(response.headers.get('content-disposition'))
  ) {
    return null;
  }
  return sourceFormat;
}

/** Negotiation still applies: another Accept could get another body, so caches must key on it. */
function withVaryOnAccept(response: Response): Response {
  const headers = new Headers(response.headers);
  varyOnAccept(headers);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A checked source on its way to negotiated variants. */
interface NegotiatedSource extends CheckedSource {
  /** A lossless source whose variants follow the graphics rule (core/lossless.ts); it adds `,ll` to their keys. */
  readonly judgedLossless: boolean;
}

const judgesLossless = (checked: CheckedOk, config: ImagesConfig) => config.lossless === 'auto' && checked.lossless;

/** An accepted format this source may be encoded to, with the encoder setting that fits the CPU budget. */
interface Candidate {
  readonly format: ModernFormat;
  readonly rung: EncoderRung;
  /** The full-effort setting was over the budget; `rung` is a faster one. */
  readonly reduced: boolean;
  /** The estimated encode time at `rung`, which a lossless encode competing with this one must fit beside. */
  readonly encodeMs: number;
}

/**
 * The accepted formats this source may be encoded to, best first: within the AVIF size limit and, at full effort or
 * at the first faster encoder setting that fits, within the CPU budget.
 */
function affordableFormats(formats: readonly ModernFormat[], checked: CheckedOk, config: ImagesConfig): Candidate[] {
  const { header } = checked;
  const avifTooLarge = header.width * header.height > config.maxAvifMegapixels * 1e6;
  const candidates: Candidate[] = [];
  for (const format of formats) {
    if ((format === 'avif' && avifTooLarge) || !holdsSize(format, header)) continue;
    // Same pixels out as in: the estimate is a decode plus one encode, no resize.
    const shape = { source: header, jpegScans: checked.jpegScans, resized: false, output: header, target: format };
    const plan = planEncode(shape, config.maxWorkMs);
    if (plan.ok) candidates.push({ format, rung: plan.rung, reduced: plan.reduced, encodeMs: plan.estimate.encodeMs });
  }
  return candidates;
}

/**
 * Variant key options: the turn, profile and lossless rule of the source (`sourceKeyOptions`), and a reduced encoder
 * setting (full effort keeps the old key).
 */
const optionsFor = (candidate: Candidate, orientation: Orientation, keepsProfile: boolean, judgedLossless: boolean) => {
  const setting = candidate.reduced ? `,enc=${candidate.rung.id}` : '';
  return `${negotiatedOptions}${sourceKeyOptions(orientation, keepsProfile, judgedLossless)}${setting}`;
};
const settingNote = (candidate: Candidate) =>
  candidate.reduced ? ` (${candidate.rung.id}: full effort over budget)` : '';

/** A variant found in R2 under `key`, served in place of the original. */
const storedVariantResponse = (
  request: Request,
  response: Response,
  bytes: Uint8Array,
  candidate: Candidate,
  key: string,
) =>
  variantResponse(request, response.headers, {
    bytes,
    format: candidate.format,
    key,
    // A stored WebP of a graphic may be the lossless one (core/lossless.ts): say so, as the encoding request did.
    note: `${candidate.format}; stored${candidate.format === 'webp' && isLossless(bytes, 'webp') ? ' lossless' : settingNote(candidate)}`,
    vary: true,
  });

/**
 * The first candidate stored in R2 or encoded now that is smaller than the original; background AVIF is scheduled
 * instead. 'busy' when no transform slot freed up in time, null when no variant was smaller (or is still pending),
 * `failedLately` with the reason when this source's decode failed here lately (`recentFailures`) and nothing is
 * stored: it is not decoded again, in the foreground or the background.
 */
async function firstSmallerVariant(
  request: Request,
  response: Response,
  source: NegotiatedSource,
  sourceId: string,
  candidates: readonly Candidate[],
  context: NegotiationContext,
): Promise<Response | 'busy' | { failedLately: string } | null> {
  const { config } = context;
  const failureKey = await decodeFailureKey(sourceId);
  let pixels: Promise<Pixels> | undefined;
  const decoded = () => {
    pixels ??= ensureCodecs().then(() =>
      decodeChecked(source).catch((error: unknown) => {
        recentFailures.remember(failureKey, describeError(error));
        throw error;
      }),
    );
    return pixels;
  };
  // Checked once, before any candidate: a source that failed to decode lately is neither encoded now nor scheduled
  // for a background encode, while a variant another isolate stored is still served.
  const failedLately = recentFailures.recent(failureKey);
  const work: Work = { source, decoded, lossless: losslessAnswer(source, decoded, config) };
  for (const candidate of candidates) {
    const { format } = candidate;
    const options = optionsFor(candidate, source.orientation, !!source.profile, source.judgedLossless);
    const key = await variantKey(sourceId, options, format);
    const stored = await getVariant(context.bucket, key);
    if (stored?.kind === 'variant') return storedVariantResponse(request, response, stored.bytes, candidate, key);
    if (stored?.kind === 'not-smaller' || failedLately) continue;
    if (format === 'avif' && config.avifMode === 'background') {
      scheduleEncode(context, key, work, candidate);
      continue;
    }
    const release = await gate(config).acquire(config.queueWaitMs);
    if (!release) return 'busy';
    let encoded: Encoded;
    try {
      encoded = await encodeNegotiated(work, candidate);
    } finally {
      release();
    }
    const smaller = encoded && encoded.bytes.byteLength < source.bytes.byteLength ? encoded : null;
    context.ctx.waitUntil(putVariant(context.bucket, key, smaller?.bytes ?? null, mimeTypes[format]));
    if (smaller) {
      return variantResponse(request, response.headers, {
        bytes: smaller.bytes,
        format,
        key,
        note: `${format}; encoded${smaller.lossless ? ' lossless' : settingNote(candidate)}`,
        vary: true,
      });
    }
  }
  return failedLately ? { failedLately } : null;
}

/** One request's source, its pixels decoded once, and its lossless answer found once, for every candidate. */
interface Work {
  readonly source: NegotiatedSource;
  readonly decoded: () => Promise<Pixels>;
  /** The lossless answer a lossy candidate competes with (given the candidate's encode estimate), or null. */
  readonly lossless: (competitorEncodeMs: number) => Promise<LosslessAnswer | null>;
}

/** The exact-pixel answer for a graphic: lossless WebP we encode, or a lossless WebP source itself. */
interface LosslessAnswer {
  readonly bytes: Uint8Array;
  readonly kind: 'webp' | 'original';
}

/** What a candidate's encode gives: its bytes (lossless WebP when the rule chose it), or null when it gives way. */
type Encoded = { readonly bytes: Uint8Array; readonly lossless: boolean } | null;

const sameSize = (source: CheckedSource) =>
  planResize(source.header, { fit: 'scale-down', dpr: 1, gravity: { x: 0.5, y: 0.5 } }, Number.POSITIVE_INFINITY);

/**
 * The lossless answer of a source under the graphics rule, decided at most once per request: null for a lossy
 * source, pixels that do not look like a graphic, or (PNG) a lossless encode whose estimate, with the lossy encode
 * it competes with, would pass the work budget; that candidate is then served lossy as before.
 */
function losslessAnswer(
  source: NegotiatedSource,
  decoded: () => Promise<Pixels>,
  config: ImagesConfig,
): Work['lossless'] {
  let answer: Promise<LosslessAnswer | null> | undefined;
  const find = async (competitorEncodeMs: number): Promise<LosslessAnswer | null> => {
    if (!source.judgedLossless) return null;
    const pixels = await decoded();
    if (!looksLikeGraphic(pixels)) return null;
    // A lossless WebP source is its own lossless answer; only AVIF competes with it.
    if (source.header.format === 'webp') return { bytes: source.bytes, kind: 'original' };
    if (!config.formats.includes('webp')) return null;
    const shape = { source: source.header, resized: false, output: source.header, target: 'webp' as const };
    if (estimateWork(shape, losslessWebpRung).totalMs + competitorEncodeMs > config.maxWorkMs) return null;
    const bytes = await transformImage(
      pixels,
      sameSize(source),
      'webp',
      negotiatedQuality,
      losslessWebpRung.setting,
      source.profile,
    );
    return { bytes, kind: 'webp' };
  };
  return (competitorEncodeMs) => {
    answer ??= find(competitorEncodeMs);
    return answer;
  };
}

/**
 * The candidate's lossy variant, or the lossless answer in its place when the graphics rule picks it: served as the
 * WebP candidate's variant when it is a lossless WebP we encoded; otherwise the candidate gives way (null: stored as
 * the marker, so the WebP candidate or the original answers instead).
 */
async function encodeNegotiated(work: Work, candidate: Candidate): Promise<Encoded> {
  const { source } = work;
  const { setting } = candidate.rung;
  const pixels = await work.decoded();
  const lossy = await transformImage(
    pixels,
    sameSize(source),
    candidate.format,
    negotiatedQuality,
    setting,
    source.profile,
  );
  const lossless = await work.lossless(candidate.encodeMs);
  if (!lossless || !losslessWins(lossless.bytes.byteLength, lossy.byteLength)) return { bytes: lossy, lossless: false };
  return candidate.format === 'webp' && lossless.kind === 'webp' ? { bytes: lossless.bytes, lossless: true } : null;
}

/** Encodes after the response is sent and stores the result (or the not-smaller marker) for the next request. */
function scheduleEncode(context: NegotiationContext, key: string, work: Work, candidate: Candidate): void {
  const { format } = candidate;
  const claimedAtMs = Date.now();
  if (!inFlight.claim(key, claimedAtMs)) return;
  const job = (async () => {
    // Wasm encoding blocks the isolate's only thread; yield first so the response already returned gets written.
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Background work takes a slot like any other transform; when none frees up it is simply tried again on a later
    // request (no marker is stored, the image is fine).
    const release = await gate(context.config).acquire(context.config.queueWaitMs, true);
    if (!release) {
      console.log(`images: background ${format} encode deferred: every transform slot is busy`);
      inFlight.release(key, claimedAtMs);
      return;
    }
    try {
      const encoded = await encodeNegotiated(work, candidate);
      const smaller = encoded !== null && encoded.bytes.byteLength < work.source.bytes.byteLength;
      await putVariant(context.bucket, key, smaller ? encoded.bytes : null, mimeTypes[format]);
    } catch (error) {
      console.warn(`images: background ${format} encode failed, storing marker: ${String(error)}`);
      await putVariant(context.bucket, key, null, mimeTypes[format]);
    } finally {
      release();
      inFlight.release(key, claimedAtMs);
    }
  })();
  context.ctx.waitUntil(job);
}
