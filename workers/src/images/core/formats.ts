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
