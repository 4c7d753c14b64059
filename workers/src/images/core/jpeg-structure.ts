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

/**
 * Walks a JPEG's markers to the end: each segment by its length, entropy-coded data up to the next marker that is
 * neither FF00 stuffing nor RSTn. Stops as soon as a limit is passed, so its own cost is bounded by the limits and
 * one pass over the bytes. Never throws; a structure it cannot follow is reported as such.
 */
export function walkJpeg(bytes: Uint8Array, limits: JpegLimits): JpegWalk {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return { ok: false, reason: 'not a JPEG' };
  let scans = 0;
  let markers = 0;
  let at = 2;
  while (at < bytes.length) {
    if (bytes[at] !== 0xff) return { ok: false, reason: `no marker at byte ${at}` };
    let code = bytes[at + 1] ?? 0;
    while (code === 0xff && at + 2 < bytes.length) {
      at += 1; // fill bytes
      code = bytes[at + 1] ?? 0;
    }
    at += 2;
    markers += 1;
    if (markers > limits.maxMarkers) return { ok: false, reason: `more than ${limits.maxMarkers} JPEG markers` };
    if (code === 0xd9) return { ok: true, structure: { scans, markers } };
    if (code === 0x01 || (code >= 0xd0 && code <= 0xd8)) continue; // no length field
    if (at + 2 > bytes.length) break;
    const length = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0);
    if (length < 2) return { ok: false, reason: `JPEG segment with length ${length} at byte ${at}` };
    at += length;
    if (code !== 0xda) continue;
    scans += 1;
    if (scans > limits.maxScans) return { ok: false, reason: `more than ${limits.maxScans} JPEG scans` };
    // Entropy-coded data: ends at FF followed by anything but 00 (stuffing) or D0..D7 (restart markers).
    for (;;) {
      const ff = bytes.indexOf(0xff, at);
      if (ff < 0 || ff + 1 >= bytes.length) return { ok: true, structure: { scans, markers } };
      const next = bytes[ff + 1] ?? 0;
      if (next === 0x00 || (next >= 0xd0 && next <= 0xd7) || next === 0xff) {
        at = ff + (next === 0xff ? 1 : 2);
        continue;
      }
      at = ff;
      break;
    }
  }
  // Ran off the end without EOI: the caller's truncation check decides about that; the counts are still true.
  return { ok: true, structure: { scans, markers } };
}
