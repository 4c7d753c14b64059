import { readAvifHeader } from './avif';
import { type ImageFormat, magicNumberFormat } from './format';
import { isAnimated } from './frames';
import { readJpegFrameHeader } from './jpeg-frame';
import { readGifHeader, readPngHeader, readWebpHeader } from './png-gif-webp';
import type { HeaderScan } from './scan';

/** What an image's own header says, read without decoding any pixels. */
export interface ImageHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** Several frames (animated GIF, APNG, animated WebP, AVIF image sequence). */
  readonly animated: boolean;
}

// Headers sit in the first bytes; a bounded scan keeps a hostile file from making us walk megabytes.
const maxScanBytes = 256 * 1024;

/**
 * Recognises JPEG, PNG, GIF, WebP and AVIF from the bytes of a whole file and reads the dimensions and whether it is
 * animated, so limits are enforced before a decoder allocates anything. The same readers as the streaming priority
 * scanner. Never throws.
 * @returns `null` for anything that is not one of those formats or whose header is cut short or nonsensical
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  try {
    const format = magicNumberFormat(bytes);
    if (format === null) return null;
    let scan: HeaderScan;
    let avifMajorBrand: string | undefined;
    if (format === 'avif') {
      const avif = readAvifHeader(bytes, { mdatFirst: 'skip' });
      avifMajorBrand = avif.brands?.majorBrand;
      scan = avif;
    } else if (format === 'jpeg') scan = readJpegFrameHeader(bytes, maxScanBytes);
    else if (format === 'png') scan = readPngHeader(bytes);
    else if (format === 'gif') scan = readGifHeader(bytes);
    else scan = readWebpHeader(bytes);
    if (scan.kind !== 'done') return null;
    const { width, height } = scan.header;
    return { format, width, height, animated: isAnimated(bytes, format, maxScanBytes, avifMajorBrand) };
  } catch {
    return null;
  }
}
