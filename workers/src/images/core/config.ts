import { commaList, type InvalidVar, oneOf, positiveNumber, type Vars, varReader } from '../../shared/vars';
import type { ModernFormat } from './formats';

/** Deployment settings for the image Worker, from wrangler vars. None of them can be changed by URL options. */
export interface ImagesConfig {
  /** Base URL of the site owner's origin for relative sources; `null` = the request's own origin (or the assets). */
  readonly origin: string | null;
  /** Origins (`https://host[:port]`) that absolute `/cdn-cgi/image/` sources and their redirects may point at. */
  readonly allowedOrigins: readonly string[];
  /** Path prefixes whose image responses are negotiated by `Accept`. */
  readonly routes: readonly string[];
  /** Formats to convert to, best first. */
  readonly formats: readonly ModernFormat[];
  /** Larger sources are passed through untouched (read from Content-Length, then enforced while reading). */
  readonly maxInputBytes: number;
  /**
   * Larger sources (from the header, before decoding) are passed through. Every Emscripten codec starts with a 16 MB
   * heap, RGBA costs 4 MB per megapixel per copy, and the resize heap never shrinks; 3 MP keeps a decode + resize +
   * encode well inside 128 MB.
   */
  readonly maxInputMegapixels: number;
  /**
   * Largest AVIF output. libavif's heap reaches ~37 MB at 2 MP and ~50 MB at 4 MP (bench/images/memory.mjs), next to
   * the decoder, the pixels and the WebP encoder in one 128 MB isolate. Larger images get WebP instead.
   */
  readonly maxAvifMegapixels: number;
  /** Largest output side in pixels; URL options above it are rejected, dpr results are clamped. */
  readonly maxOutputDimension: number;
  /** `background`: serve the best ready variant and encode AVIF in `ctx.waitUntil`; `sync`: encode before answering. */
  readonly avifMode: 'background' | 'sync';
  /**
   * `auto`: a negotiated PNG or lossless WebP that looks like a graphic is tried as lossless WebP and served so when
   * that costs at most 1.25× the lossy variant's bytes (core/lossless.ts); `off`: every variant is lossy.
   */
  readonly lossless: 'auto' | 'off';
  /** `wasm`: our codecs in the Worker; `cloudflare`: `fetch(url, { cf: { image } })` on a zone with Image Resizing. */
  readonly engine: 'wasm' | 'cloudflare';
  /** Redirect hops followed for a source, each re-checked against the allow-list. */
  readonly maxRedirects: number;
  /**
   * Largest output in megapixels, like the input cap: `width=3900,height=3900,fit=pad` asks for 15 MP of encoding
   * from any small source. Above it `/cdn-cgi/image/` answers 400 naming the option.
   */
  readonly maxOutputMegapixels: number;
  /**
   * Per-request work budget: the estimated decode + resize + encode time (budget.ts) must fit in it, else a cheaper
   * format is chosen (AVIF → WebP) or the request is refused before any decode.
   */
  readonly maxWorkMs: number;
  /** Transforms running at once per isolate; the codecs share the isolate's one thread with every other request. */
  readonly maxConcurrentTransforms: number;
  /** How long a transform may wait for a free slot before the original (negotiation) or 503 (URL API) is served. */
  readonly queueWaitMs: number;
  /** Transforms allowed to wait for a slot at once; more are answered at once as if the wait had run out. */
  readonly maxQueuedTransforms: number;
  /** Progressive JPEGs with more scans are served as they are (each scan costs a pass over the whole frame). */
  readonly maxJpegScans: number;
  /** JPEGs with more marker segments are served as they are. */
  readonly maxJpegMarkers: number;
}

/** Whether a path is under one of `IMAGES_ROUTES`, whose image responses are negotiated. */
export const onImageRoute = (pathname: string, config: ImagesConfig) =>
  config.routes.some((route) => pathname.startsWith(route));

export const defaultConfig: ImagesConfig = {
  origin: null,
  allowedOrigins: [],
  routes: ['/'],
  formats: ['avif', 'webp'],
  maxInputBytes: 10 * 1024 * 1024,
  maxInputMegapixels: 3,
  maxAvifMegapixels: 2,
  maxOutputDimension: 4096,
  avifMode: 'background',
  lossless: 'auto',
  engine: 'wasm',
  maxRedirects: 3,
  maxOutputMegapixels: 3,
  maxWorkMs: 1500,
  maxConcurrentTransforms: 1,
  queueWaitMs: 10_000,
  maxQueuedTransforms: 8,
  maxJpegScans: 100,
  maxJpegMarkers: 1000,
};

/** `images: NAME=value is not …, using …`: the images log line for a var that was invalid. */
function warnInvalid({ name, raw, fallback, expected }: InvalidVar): void {
  console.warn(`images: ${name}=${String(raw)} is not ${expected}, using ${String(fallback)}`);
}

/**
 * Reads `IMAGES_*` vars. A missing var takes its default; an invalid one also takes its default and is logged,
 * because a typo in a deployment must not take the site's images down. An empty list var is an empty list (no
 * routes, no formats), not its default.
 */
export function readConfig(env: Vars): ImagesConfig {
  const read = varReader(env, warnInvalid);
  const number = (name: string, fallback: number) => read(name, positiveNumber, fallback);
  const origins = (commaList.parse(env.IMAGES_ALLOWED_ORIGINS) ?? []).flatMap((item) => {
    try {
      return [new URL(item).origin];
    } catch {
      console.warn(`images: IMAGES_ALLOWED_ORIGINS entry ${item} is not a URL, ignored`);
      return [];
    }
  });
  const origin = originOrNull(env.IMAGES_ORIGIN);
  const formats = (commaList.parse(env.IMAGES_FORMATS) ?? defaultConfig.formats).filter(
    (format): format is ModernFormat => format === 'avif' || format === 'webp',
  );
  return {
    origin,
    allowedOrigins: origins,
    routes: commaList.parse(env.IMAGES_ROUTES) ?? defaultConfig.routes,
    formats,
    maxInputBytes: number('IMAGES_MAX_INPUT_BYTES', defaultConfig.maxInputBytes),
    maxInputMegapixels: number('IMAGES_MAX_INPUT_MEGAPIXELS', defaultConfig.maxInputMegapixels),
    maxAvifMegapixels: number('IMAGES_MAX_AVIF_MEGAPIXELS', defaultConfig.maxAvifMegapixels),
    maxOutputDimension: number('IMAGES_MAX_OUTPUT_DIMENSION', defaultConfig.maxOutputDimension),
    avifMode: read('IMAGES_AVIF_MODE', oneOf(['background', 'sync'] as const), defaultConfig.avifMode),
    lossless: read('IMAGES_LOSSLESS', oneOf(['auto', 'off'] as const), defaultConfig.lossless),
    engine: read('IMAGES_ENGINE', oneOf(['wasm', 'cloudflare'] as const), defaultConfig.engine),
    maxRedirects: defaultConfig.maxRedirects,
    maxOutputMegapixels: number('IMAGES_MAX_OUTPUT_MEGAPIXELS', defaultConfig.maxOutputMegapixels),
    maxWorkMs: number('IMAGES_MAX_WORK_MS', defaultConfig.maxWorkMs),
    maxConcurrentTransforms: Math.floor(
      number('IMAGES_MAX_CONCURRENT_TRANSFORMS', defaultConfig.maxConcurrentTransforms),
    ),
    queueWaitMs: number('IMAGES_QUEUE_WAIT_MS', defaultConfig.queueWaitMs),
    maxQueuedTransforms: Math.floor(number('IMAGES_MAX_QUEUED_TRANSFORMS', defaultConfig.maxQueuedTransforms)),
    maxJpegScans: Math.floor(number('IMAGES_MAX_JPEG_SCANS', defaultConfig.maxJpegScans)),
    maxJpegMarkers: Math.floor(number('IMAGES_MAX_JPEG_MARKERS', defaultConfig.maxJpegMarkers)),
  };
}

/** `IMAGES_ORIGIN` as a base URL; anything that is not an http(s) URL is logged and ignored. */
function originOrNull(raw: unknown): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  try {
    const url = new URL(raw);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // fall through to the warning
  }
  console.warn(`images: IMAGES_ORIGIN=${raw} is not an http(s) URL, using the request's own origin`);
  return null;
}
