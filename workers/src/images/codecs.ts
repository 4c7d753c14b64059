// The Wasm codecs (jSquash builds of libavif, libwebp, MozJPEG, the Rust png and resize crates) behind one small
// interface. Modules are injected rather than fetched: Workers cannot compile Wasm at run time, and the Node benchmark
// passes the same files compiled from disk, so both run exactly this code.
import avifDecode, { init as initAvifDecode } from '@jsquash/avif/decode.js';
import avifEncode, { init as initAvifEncode } from '@jsquash/avif/encode.js';
import jpegDecode, { init as initJpegDecode } from '@jsquash/jpeg/decode.js';
import jpegEncode, { init as initJpegEncode } from '@jsquash/jpeg/encode.js';
import pngDecode, { init as initPngDecode } from '@jsquash/png/decode.js';
import pngEncode, { init as initPngEncode } from '@jsquash/png/encode.js';
import resize, { initResize } from '@jsquash/resize';
import webpDecode, { init as initWebpDecode } from '@jsquash/webp/decode.js';
import webpEncode, { init as initWebpEncode } from '@jsquash/webp/encode.js';
import type { CodecFormat } from './formats';
import type { Pixels } from './pixels';

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
const init = (fn: unknown, module: WebAssembly.Module) => (fn as Init)(module);

let ready: Promise<void> | undefined;

/** Instantiates every codec once per isolate (later calls share the first promise). */
export function initCodecs(modules: CodecModules): Promise<void> {
  ready ??= (async () => {
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
    await Promise.all([
      init(initAvifDecode, modules.avifDecode),
      init(initAvifEncode, modules.avifEncode),
      init(initJpegDecode, modules.jpegDecode),
      init(initJpegEncode, modules.jpegEncode),
      init(initPngDecode, modules.png),
      init(initPngEncode, modules.png),
      init(initWebpDecode, modules.webpDecode),
      init(initWebpEncode, modules.webpEncode),
      initResize(modules.resize),
    ]);
  })();
  return ready;
}

/** Fresh, tightly packed RGBA (some codecs return views into their Wasm heap, which the next call overwrites). */
function own(image: { data: ArrayLike<number> & { buffer: ArrayBufferLike }; width: number; height: number }): Pixels {
  return { data: new Uint8ClampedArray(image.data as ArrayLike<number>), width: image.width, height: image.height };
}

/** Decodes to 8-bit RGBA. Throws on corrupt input: callers catch and serve the original. */
export async function decode(bytes: Uint8Array, format: CodecFormat): Promise<Pixels> {
  const buffer = bytes.slice().buffer;
  switch (format) {
    case 'jpeg':
      return own(await jpegDecode(buffer));
    case 'png':
      return own(await pngDecode(buffer));
    case 'webp':
      return own(await webpDecode(buffer));
    case 'avif': {
      const image = await avifDecode(buffer);
      if (!image) throw new Error('AVIF decoder returned nothing');
      return own(image as { data: Uint8ClampedArray; width: number; height: number });
    }
  }
}

/** Resizes with Lanczos3 in linear light (jSquash's defaults, what Squoosh ships). */
export async function resizePixels(pixels: Pixels, width: number, height: number): Promise<Pixels> {
  if (width === pixels.width && height === pixels.height) return pixels;
  return own(await resize(pixels as CodecImage, { width, height, fitMethod: 'stretch' }));
}

/**
 * AVIF's quality scale is much steeper than JPEG's or WebP's. Mapping the URL's 1–100 by 0.7 puts the default 85 at
 * libavif 60, which bench/images measured at mean SSIM 0.961 for 47% of the source JPEG's bytes (WebP at 85: 0.970,
 * 70%); libavif 51 (a plain 0.6) dropped to SSIM 0.943, visibly soft on the star field.
 */
export const avifQuality = (quality: number) => Math.round((quality * 7) / 10);

/** libavif speed 0–10: 8 trades a few percent of bytes for about half the encode time of the default 6. */
export const avifSpeed = 8;

export async function encode(pixels: Pixels, format: CodecFormat, quality: number): Promise<Uint8Array> {
  const image = pixels as CodecImage;
  switch (format) {
    case 'avif':
      return new Uint8Array(await avifEncode(image, { quality: avifQuality(quality), speed: avifSpeed }));
    case 'webp':
      return new Uint8Array(await webpEncode(image, { quality }));
    case 'jpeg':
      return new Uint8Array(await jpegEncode(image, { quality, progressive: true }));
    case 'png':
      return new Uint8Array(await pngEncode(image));
  }
}

/** Baseline (sequential) JPEG for `format=baseline-jpeg`: decoders that cannot show progressive scans. */
export async function encodeBaselineJpeg(pixels: Pixels, quality: number): Promise<Uint8Array> {
  return new Uint8Array(await jpegEncode(pixels as CodecImage, { quality, progressive: false, baseline: true }));
}
