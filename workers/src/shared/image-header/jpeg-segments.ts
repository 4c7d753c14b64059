import { u16be } from './bytes';

// The marker segments of a whole JPEG before its first scan (where APPn metadata lives), for readers that want a
// segment's payload: EXIF orientation, ICC profile. The streaming walk (jpeg-markers.ts) keeps only small payloads;
// this one hands out views of the whole file's bytes, so it copies nothing.

/** More segments than this before the first scan are an attack, not a photo. */
const maxSegments = 1024;

/**
 * Calls `visit` with each segment's marker and payload (after the length field) from SOI to the first SOS or EOI,
 * until it answers 'stop'. 'too-many' when over `maxSegments`; a cut or malformed segment ends the walk ('done'),
 * as it ends a decoder's. Never throws.
 */
export function jpegSegments(
  bytes: Uint8Array,
  visit: (marker: number, payload: Uint8Array) => 'continue' | 'stop',
): 'done' | 'too-many' {
  let at = 2;
  for (let segments = 0; segments < maxSegments; segments++) {
    // Fill bytes (FF FF …) may precede a marker code.
    while (at + 1 < bytes.length && bytes[at] === 0xff && bytes[at + 1] === 0xff) at++;
    if (at + 4 > bytes.length || bytes[at] !== 0xff) return 'done';
    const marker = bytes[at + 1] as number;
    // Start of scan or end of image: the header is over.
    if (marker === 0xda || marker === 0xd9) return 'done';
    // Standalone markers (TEM, RSTn) carry no length.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    const length = u16be(bytes, at + 2);
    if (length < 2 || at + 2 + length > bytes.length) return 'done';
    if (visit(marker, bytes.subarray(at + 4, at + 2 + length)) === 'stop') return 'done';
    at += 2 + length;
  }
  return 'too-many';
}
