import { isStartOfFrame, walkJpegMarkers } from '../../shared/image-header/jpeg-markers';

// Counts what a JPEG decoder will have to do before it is given the bytes. A progressive decoder re-walks its whole
// coefficient buffer once per scan, so a 2 KB file with 10,000 empty scans over a 3 MP frame costs seconds of CPU
// (measured: 6.3 s in this Worker). Real encoders write 1 scan (baseline) to ~12 (libjpeg's progressive script);
// jpegtran custom scripts rarely go past 30.

/** What the walk found: the number of scans (SOS) and of marker segments, and whether the image reaches its EOI. */
export interface JpegStructure {
  readonly scans: number;
  readonly markers: number;
  /** The walk reached the (first) image's EOI: bytes after it (an MPO's second image, a phone's trailer) do not count. */
  readonly complete: boolean;
}

export interface JpegLimits {
  /** More scans than this are refused (`IMAGES_MAX_JPEG_SCANS`). */
  readonly maxScans: number;
  /** More marker segments than this are refused: tables and APPn repeated thousands of times are hostile too. */
  readonly maxMarkers: number;
}

export type JpegWalk =
  | { readonly ok: true; readonly structure: JpegStructure }
  | { readonly ok: false; readonly reason: string };

const onlyColour = 'the codec decodes 8-bit greyscale and colour only';

/**
 * What the codec (MozJPEG built for 8-bit greyscale and YCbCr/RGB output, Huffman-coded frames only) cannot decode,
 * from the frame header: the reason, or null. Refused before decoding, so the original is served with a reason
 * rather than after a failed decode, which costs a decoder instance each time (a CMYK file made the decoder exit with
 * status 1; an arithmetic-coded one too, until 2026-11-28).
 */
function undecodableFrame(marker: number, frame: Uint8Array): string | null {
  // SOF3, 7, 11, 15 are lossless (predictive) coding.
  if ((marker & 0x03) === 0x03) return `a lossless JPEG: ${onlyColour}`;
  // SOF9–15 are arithmetic-coded (the build's libjpeg has no arithmetic decoder); SOF5–7 and 13–15 hierarchical.
  if (marker >= 0xc9) return 'an arithmetic-coded JPEG: the codec decodes Huffman-coded ones only';
  if (marker >= 0xc5) return 'a hierarchical JPEG: the codec decodes baseline and progressive ones only';
  if (frame[0] !== 8) return `a ${frame[0]}-bit JPEG: ${onlyColour}`;
  if (frame[5] === 4) return `a CMYK or YCCK JPEG (4 components): ${onlyColour}`;
  return null;
}

/** Keeps the frame header (SOF) and follows every segment and scan to the end. */
function frameReader() {
  let undecodable: string | null = null;
  return {
    visitor: {
      keep: isStartOfFrame,
      segment: ({ marker, payload }: { marker: number; payload: Uint8Array | null }) => {
        if (payload && isStartOfFrame(marker) && payload.length >= 6) undecodable ??= undecodableFrame(marker, payload);
        return 'continue' as const;
      },
    },
    undecodable: () => undecodable,
  };
}

/**
 * Walks a JPEG's markers to the end with the shared marker walk (shared/image-header/jpeg-markers.ts), and refuses
 * frames the codec cannot decode (lossless, not 8-bit, four components). Stops as soon as a limit is passed, so its
 * own cost is bounded by the limits and one pass over the bytes. Never throws; a structure it cannot follow is
 * reported as such.
 */
export function walkJpeg(bytes: Uint8Array, limits: JpegLimits): JpegWalk {
  if (bytes.length < 4) return { ok: false, reason: 'not a JPEG' };
  const frame = frameReader();
  const { status, scans, markers } = walkJpegMarkers(bytes, frame.visitor, limits);
  if (status.kind === 'invalid') return { ok: false, reason: status.reason };
  const undecodable = frame.undecodable();
  if (undecodable) return { ok: false, reason: undecodable };
  // Ran off the end without EOI: the counts are still true, and the caller decides what a truncated file means.
  return { ok: true, structure: { scans, markers, complete: status.kind === 'ended' } };
}
