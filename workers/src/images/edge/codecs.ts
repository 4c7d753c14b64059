// The Wasm codecs (jSquash builds of libavif, libwebp, MozJPEG, the Rust png and resize crates) behind one small
// interface. Modules are injected rather than fetched: Workers cannot compile Wasm at run time, and the Node benchmark
// passes the same files compiled from disk, so both run exactly this code.
import avifDecode, { init as initAvifDecode } from '@jsquash/avif/decode.js';
import avifEncode, { init as initAvifEncode } from '@jsquash/avif/encode.js';
import jpegDecode, { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import jpegEncode, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import webpDecode, { init as initWebpDecode } from '@jsquash/webp/decode.js';
import webpEncode, { init as initWebpEncode } from '@jsquash/webp/encode.js';
import type { CodecFormat } from '../core/formats';
import type { Pixels } from '../core/pixels';
import type { EncoderSetting } from '../core/work-budget';
import { type PngCodec, type ResizeCodec, startPng, startResize } from './bindgen-codecs.ts';

/** jSquash's ImageData parameter type; workerd has no DOM ImageData, and `Pixels` has the same shape. */
type CodecImage = Parameters<typeof webpEncode>[0];

/** Compiled Wasm modules, one per codec. `webpEncode` must be the SIMD build (every V8 we run on has SIMD). */
export interface CodecModules {
  readonly avifDecode: WebAssembly.Module;
  readonly avifEncode: WebAssembly.Module;
  readonly jpegDecode: WebAssembly.Module;
  readonly jpegEncode: WebAssembly.Module;
  readonly png: WebAssembly.Module;
  readonly resize: WebAssembly.Module;
  readonly webpDecode: WebAssembly.Module;
  readonly webpEncode: WebAssembly.Module;
}

// jSquash's typings only declare option-object overloads of `init`; at run time each also takes a Module first.
type Init = (module: WebAssembly.Module, options?: unknown) => unknown;
type Codec = keyof CodecModules;
const emscriptenInits: Partial<Record<Codec, unknown>> = {
  avifDecode: initAvifDecode,
  avifEncode: initAvifEncode,
  jpegDecode: initJpegDecode,
  jpegEncode: initJpegEncode,
  webpDecode: initWebpDecode,
  webpEncode: initWebpEncode,
};

/**
 * Each Emscripten codec starts with a 16 MB heap that only ever grows (libavif's reaches ~50 MB after a 4 MP encode,
 * bench/images/memory.mjs), and instantiating all six up front would take ~96 MB of a Worker's 128 MB. So codecs are
 * instantiated on first use, and one that has just handled more than this many pixels is replaced by a fresh
 * instance, letting the grown heap be garbage-collected.
 */
const releaseAbovePixels = 500_000;

let modules: CodecModules | undefined;
/** The instance each codec's next call runs on: our own for png and resize, jSquash's module state for the rest. */
const instances = new Map<Codec, Promise<unknown>>();

/** Registers the compiled modules; nothing is instantiated until a codec is used. */
export function initCodecs(compiled: CodecModules): Promise<void> {
  modules ??= compiled;
  // Emscripten glue builds ImageData objects; workerd has no such global, so give it the plain shape it needs.
  const scope = globalThis as { ImageData?: unknown };
  scope.ImageData ??= class {
    // Plain fields, no parameter properties: Node's type stripping (used by bench/images) cannot run those.
    data: Uint8ClampedArray;
    width: number;
    height: number;
    constructor(data: Uint8ClampedArray, width: number, height: number) {
      this.data = data;
      this.width = width;
      this.height = height;
    }
  };
  return Promise.resolve();
}

function instantiate(codec: Codec): Promise<unknown> {
  if (!modules) throw new Error('initCodecs() must be called before using a codec');
  instantiations.set(codec, (instantiations.get(codec) ?? 0) + 1);
  const module = modules[codec];
  if (codec === 'png') return startPng(module);
  if (codec === 'resize') return startResize(module);
  return Promise.resolve((emscriptenInits[codec] as Init)(module));
}

/** How many times each codec was instantiated in this isolate (a test reads it to see a failed call replaced). */
export const instantiations = new Map<Codec, number>();

/**
 * The codec's current instance. One whose start failed (memory pressure at instantiation) is forgotten: kept, it
 * would fail every later call of that codec until the isolate died. A failed start left by an earlier call (the
 * fresh instance made after its image) is retried once here; this call's own failure is thrown, and the next call
 * tries again.
 */
async function started<I>(codec: Codec): Promise<I> {
  const earlier = instances.get(codec);
  if (earlier) {
    try {
      return (await earlier) as I;
    } catch {
      if (instances.get(codec) === earlier) instances.delete(codec);
    }
  }
  const fresh = instantiate(codec);
  instances.set(codec, fresh);
  try {
    return (await fresh) as I;
  } catch (error) {
    if (instances.get(codec) === fresh) instances.delete(codec);
    throw error;
  }
}

/**
 * Runs `work` on `codec`'s instance, then swaps in a fresh instance if the image was large (see above) or if the
 * call failed: a trap, an abort or an `exit()` inside the module can leave its heap, its globals and (wasm-bindgen,
 * see bindgen-codecs.ts) its shadow stack half-written, and the next request's image must not be handled by that
 * instance.
 */
async function using<T, I = unknown>(codec: Codec, pixels: number, work: (instance: I) => Promise<T> | T): Promise<T> {
  const instance = await started<I>(codec);
  let failed = true;
  try {
    const result = await work(instance);
    failed = false;
    return result;
  } finally {
    if (failed || pixels > releaseAbovePixels) {
      const fresh = instantiate(codec);
      fresh.catch(() => {}); // a failed start is seen, and forgotten, by the next call (`started`)
      instances.set(codec, fresh);
    }
  }
}

/** Fresh, tightly packed RGBA (some codecs return views into their Wasm heap, which the next call overwrites). */
function own(image: { data: ArrayLike<number> & { buffer: ArrayBufferLike }; width: number; height: number }): Pixels {
  return { data: new Uint8ClampedArray(image.data as ArrayLike<number>), width: image.width, height: image.height };
}

/** Decodes to 8-bit RGBA. Throws on corrupt input: callers catch and serve the original. */
export async function decode(bytes: Uint8Array, format: CodecFormat, pixels: number): Promise<Pixels> {
  const buffer = bytes.slice().buffer;
  switch (format) {
    case 'jpeg':
      return using('jpegDecode', pixels, async () => own(await jpegDecode(buffer)));
    case 'png':
      return using('png', pixels, (png: PngCodec) => png.decode(new Uint8Array(buffer)));
    case 'webp':
      return using('webpDecode', pixels, async () => own(await webpDecode(buffer)));
    case 'avif':
      return using('avifDecode', pixels, async () => {
        const image = await avifDecode(buffer);
        if (!image) throw new Error('AVIF decoder returned nothing');
        return own(image as { data: Uint8ClampedArray; width: number; height: number });
      });
  }
}

/** Resizes with Lanczos3 in linear light (jSquash's defaults, what Squoosh ships). */
export async function resizePixels(pixels: Pixels, width: number, height: number): Promise<Pixels> {
  if (width === pixels.width && height === pixels.height) return pixels;
  // Its heap holds the input and the output at once.
  const held = Math.max(pixels.width * pixels.height, width * height);
  return using('resize', held, (resizer: ResizeCodec) => resizer.resize(pixels, width, height));
}

/**
 * AVIF's quality scale is much steeper than JPEG's or WebP's. Mapping the URL's 1–100 by 0.7 puts the default 85 at
 * libavif 60, which bench/images measured at mean SSIM 0.961 for 47% of the source JPEG's bytes (WebP at 85: 0.970,
 * 70%); libavif 51 (a plain 0.6) dropped to SSIM 0.943, visibly soft on the star field.
 */
export const avifQuality = (quality: number) => Math.round((quality * 7) / 10);

/**
 * Full-effort settings, used unless the work budget picked a faster rung (core/work-budget.ts `encoderLadders`).
 * libavif speed 0–10: 8 trades a few percent of bytes for about half the encode time of the default 6. libwebp method
 * 0–6: 4 is libwebp's own default.
 */
export const avifSpeed = 8;
export const webpMethod = 4;

/** Encodes 8-bit RGBA; `setting` carries a faster libwebp method or libavif speed chosen by the work budget. */
export async function encode(
  pixels: Pixels,
  format: CodecFormat,
  quality: number,
  setting: EncoderSetting = {},
): Promise<Uint8Array> {
  const image = pixels as CodecImage;
  const count = pixels.width * pixels.height;
  switch (format) {
    case 'avif': {
      const speed = setting.avifSpeed ?? avifSpeed;
      return using(
        'avifEncode',
        count,
        async () => new Uint8Array(await avifEncode(image, { quality: avifQuality(quality), speed })),
      );
    }
    case 'webp': {
      const method = setting.webpMethod ?? webpMethod;
      // Lossless reads `quality` as effort, not fidelity: 75 is libwebp's default (bench/images/lossless.mjs).
      const options = setting.webpLossless ? { lossless: 1, quality: 75, method } : { quality, method };
      return using('webpEncode', count, async () => new Uint8Array(await webpEncode(image, options)));
    }
    case 'jpeg':
      return using(
        'jpegEncode',
        count,
        async () => new Uint8Array(await jpegEncode(image, { quality, progressive: true })),
      );
    case 'png':
      return using('png', count, (png: PngCodec) => png.encode(pixels));
  }
}

/** Baseline (sequential) JPEG for `format=baseline-jpeg`: decoders that cannot show progressive scans. */
export async function encodeBaselineJpeg(pixels: Pixels, quality: number): Promise<Uint8Array> {
  const count = pixels.width * pixels.height;
  return using(
    'jpegEncode',
    count,
    async () => new Uint8Array(await jpegEncode(pixels as CodecImage, { quality, progressive: false, baseline: true })),
  );
}
