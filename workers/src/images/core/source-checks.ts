import { webpChunks } from '../../shared/image-header/chunks';
import { hasGainMap } from '../../shared/image-header/gain-map';
import { type Orientation, readOrientation, swapsAxes } from '../../shared/image-header/orientation';
import type { ImageHeader } from '../../shared/image-header/whole-file';
import { isComplete } from './completeness';
import type { ImagesConfig } from './config';
import { type CodecFormat, isCodecFormat } from './formats';
import { walkJpeg } from './jpeg-structure';

/**
 * A source the codecs may be given, with what the cost estimate needs to know about it. `header` gives the size as
 * shown (the stored width and height swapped when `orientation` turns the image by 90°): every resize, limit and
 * estimate works on it, and only the decoder sees the stored size.
 */
export type SourceCheck =
  | {
      readonly ok: true;
      readonly header: ImageHeader & { readonly format: CodecFormat };
      readonly jpegScans: number;
      readonly orientation: Orientation;
      /** Stored without loss (PNG, lossless WebP): its variants follow the graphics rule (core/lossless.ts). */
      readonly lossless: boolean;
    }
  | { readonly ok: false; readonly reason: string };

/**
 * The part of a variant key naming what was done for the source beyond the options: the turn applied to the pixels
 * (`,o=6`), a carried ICC profile (`,icc`) and a lossless source judged by the graphics rule (`,ll`, negotiation
 * only). Empty for none, so keys stored before all three stay valid, and a variant stored before turns, profiles and
 * the rule were kept is never served for such a source.
 */
export const sourceKeyOptions = (orientation: Orientation, keepsProfile: boolean, judgedLossless = false) =>
  `${orientation === 1 ? '' : `,o=${orientation}`}${keepsProfile ? ',icc' : ''}${judgedLossless ? ',ll' : ''}`;

/** The header with the size the image is shown at. */
export const shownHeader = <T extends ImageHeader>(header: T, orientation: Orientation): T =>
  swapsAxes(orientation) ? { ...header, width: header.height, height: header.width } : header;

/**
 * Everything decided from the bytes before a decoder sees them: animation, format, truncation, input megapixels, an
 * HDR gain map (which a re-encode would drop), orientation (a turn the pipeline cannot reproduce exactly as browsers
 * do is a doubt) and, for JPEG, the scan and marker counts. A failure names the reason; callers serve the original
 * and log it.
 */
export function checkSource(bytes: Uint8Array, header: ImageHeader, config: ImagesConfig): SourceCheck {
  if (header.animated) return { ok: false, reason: 'animated' };
  if (!isCodecFormat(header.format)) return { ok: false, reason: `${header.format} is passed through` };
  // A JPEG's end is found by its marker walk below, within the scan and marker limits.
  if (header.format !== 'jpeg' && !isComplete(bytes, header.format)) return { ok: false, reason: 'truncated' };
  if (header.width * header.height > config.maxInputMegapixels * 1e6)
    return { ok: false, reason: `over ${config.maxInputMegapixels} MP` };
  if (header.format === 'jpeg' && hasGainMap(bytes)) return { ok: false, reason: 'an HDR gain map JPEG' };
  const orientation = readOrientation(bytes, header.format);
  if (!orientation.ok) return { ok: false, reason: orientation.reason };
  let jpegScans = 0;
  if (header.format === 'jpeg') {
    const walk = walkJpeg(bytes, { maxScans: config.maxJpegScans, maxMarkers: config.maxJpegMarkers });
    if (!walk.ok) return { ok: false, reason: walk.reason };
    if (!walk.structure.complete) return { ok: false, reason: 'truncated' };
    jpegScans = walk.structure.scans;
  }
  return {
    ok: true,
    header: shownHeader({ ...header, format: header.format }, orientation.value),
    jpegScans,
    orientation: orientation.value,
    lossless: isLossless(bytes, header.format),
  };
}

/** PNG always; WebP when its image is VP8L (alone, or inside VP8X), not VP8 with or without an alpha plane. */
export function isLossless(bytes: Uint8Array, format: CodecFormat): boolean {
  if (format === 'png') return true;
  if (format !== 'webp') return false;
  let lossless = false;
  webpChunks(bytes, (chunk) => {
    if (chunk.type === 'VP8L') lossless = true;
    return chunk.type === 'VP8L' || chunk.type === 'VP8 ' ? 'stop' : 'continue';
  });
  return lossless;
}
