import type { ImageHeader } from '../../shared/image-header/whole-file';
import { isComplete } from './completeness';
import type { ImagesConfig } from './config';
import { type CodecFormat, isCodecFormat } from './formats';
import { walkJpeg } from './jpeg-structure';

/** A source the codecs may be given, with what the cost estimate needs to know about it. */
export type SourceCheck =
  | { readonly ok: true; readonly header: ImageHeader & { readonly format: CodecFormat }; readonly jpegScans: number }
  | { readonly ok: false; readonly reason: string };

/**
 * Everything decided from the bytes before a decoder sees them: animation, format, truncation, input megapixels and,
 * for JPEG, the scan and marker counts. A failure names the reason; callers serve the original and log it.
 */
export function checkSource(bytes: Uint8Array, header: ImageHeader, config: ImagesConfig): SourceCheck {
  if (header.animated) return { ok: false, reason: 'animated' };
  if (!isCodecFormat(header.format)) return { ok: false, reason: `${header.format} is passed through` };
  if (!isComplete(bytes, header.format)) return { ok: false, reason: 'truncated' };
  if (header.width * header.height > config.maxInputMegapixels * 1e6)
    return { ok: false, reason: `over ${config.maxInputMegapixels} MP` };
  let jpegScans = 0;
  if (header.format === 'jpeg') {
    const walk = walkJpeg(bytes, { maxScans: config.maxJpegScans, maxMarkers: config.maxJpegMarkers });
    if (!walk.ok) return { ok: false, reason: walk.reason };
    jpegScans = walk.structure.scans;
  }
  return { ok: true, header: { ...header, format: header.format }, jpegScans };
}
