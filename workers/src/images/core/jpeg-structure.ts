import { walkJpegMarkers } from '../../shared/image-header/jpeg-markers';

// Counts what a JPEG decoder will have to do before it is given the bytes. A progressive decoder re-walks its whole
// coefficient buffer once per scan, so a 2 KB file with 10,000 empty scans over a 3 MP frame costs seconds of CPU
// (measured: 6.3 s in this Worker). Real encoders write 1 scan (baseline) to ~12 (libjpeg's progressive script);
// jpegtran custom scripts rarely go past 30.

/** What the walk found: the number of scans (SOS) and of marker segments in the whole file. */
export interface JpegStructure {
  readonly scans: number;
  readonly markers: number;
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

/** Keeps no payload and follows every segment and scan to the end. */
const countEverything = { keep: () => false, segment: () => 'continue' as const };

/**
 * Walks a JPEG's markers to the end with the shared marker walk (shared/image-header/jpeg-markers.ts). Stops as soon
 * as a limit is passed, so its own cost is bounded by the limits and one pass over the bytes. Never throws; a
 * structure it cannot follow is reported as such.
 */
export function walkJpeg(bytes: Uint8Array, limits: JpegLimits): JpegWalk {
  if (bytes.length < 4) return { ok: false, reason: 'not a JPEG' };
  const { status, scans, markers } = walkJpegMarkers(bytes, countEverything, limits);
  if (status.kind === 'invalid') return { ok: false, reason: status.reason };
  // Ran off the end without EOI: the caller's truncation check decides about that; the counts are still true.
  return { ok: true, structure: { scans, markers } };
}
