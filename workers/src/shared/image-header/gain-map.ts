// HDR gain maps in JPEG (Ultra HDR on Android, Apple's HDR photos, ISO 21496-1): an SDR image plus a second image
// that tells an HDR screen how much brighter each area may be painted. Chromium paints them in HDR on such screens.
// The codecs decode the SDR image only and a re-encode drops the gain map, so the variant would lose its highlights
// there: such files are served as they are. The markers are ASCII in XMP or APP2 metadata, of the primary image or
// of the gain map appended after it, so the whole file is searched (a linear scan, within the Worker's input cap).

const markers = [
  // Adobe's gain map XMP namespace, written by Ultra HDR (Android) and Adobe.
  'hdrgm:Version',
  // ISO 21496-1 gain map metadata (APP2).
  'urn:iso:std:iso:ts:21496:-1',
  // Apple's auxiliary image type for the gain map of an HDR photo.
  'aux:hdrgainmap',
].map((text) => Uint8Array.from(text, (c) => c.charCodeAt(0)));

/** Whether `bytes` holds `pattern` anywhere (searching for its first byte with indexOf, then comparing). */
function contains(bytes: Uint8Array, pattern: Uint8Array): boolean {
  const first = pattern[0] as number;
  for (
    let at = bytes.indexOf(first);
    at >= 0 && at + pattern.length <= bytes.length;
    at = bytes.indexOf(first, at + 1)
  ) {
    let same = true;
    for (let i = 1; i < pattern.length && same; i++) same = bytes[at + i] === pattern[i];
    if (same) return true;
  }
  return false;
}

/** Whether a whole JPEG carries an HDR gain map by any of the known conventions. */
export const hasGainMap = (bytes: Uint8Array) => markers.some((marker) => contains(bytes, marker));
