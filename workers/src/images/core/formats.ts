import type { ImageFormat } from '../../shared/image-header/format';

/** Image formats the Worker can recognise from their bytes (one type for every capability). */
export type { ImageFormat };

/** Formats the Wasm codecs read and write. */
export type CodecFormat = Exclude<ImageFormat, 'gif'>;

/** Output of the pipeline: a codec format, or baseline JPEG for `format=baseline-jpeg`. */
export type TargetFormat = CodecFormat | 'baseline-jpeg';

/** Formats worth converting to when the client accepts them, best compression first. */
export type ModernFormat = 'avif' | 'webp';

export const mimeTypes: Readonly<Record<ImageFormat, string>> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
};

export function isCodecFormat(format: ImageFormat): format is CodecFormat {
  return format !== 'gif';
}

/**
 * The longest side each output format can hold: WebP stores 14-bit dimensions (libwebp refuses 16,384 px and more),
 * JPEG 16-bit ones. AVIF (AV1: 65,536) and PNG are never the limit under the input caps.
 */
export const maxSidePixels: Partial<Record<TargetFormat, number>> = {
  webp: 16_383,
  jpeg: 65_535,
  'baseline-jpeg': 65_535,
};

/**
 * Whether `format` can hold an image of this size. A sprite sheet or panorama strip 16,384 px or more wide (under the
 * megapixel cap) used to be tried as WebP on every request: a decode, a failed encode and a fresh encoder each time.
 */
export const holdsSize = (format: TargetFormat, size: { readonly width: number; readonly height: number }) =>
  Math.max(size.width, size.height) <= (maxSidePixels[format] ?? Number.POSITIVE_INFINITY);
