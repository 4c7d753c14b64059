import { ascii, u16le, u32be } from './bytes';

// The chunk lists of whole PNG and WebP files, for readers that look for one chunk's data (EXIF orientation, colour
// profile), as jpeg-segments.ts is for JPEG. Views of the file's bytes, nothing copied; never throws.

/** One chunk: its type and data. `complete` is false for a chunk the file cuts short (always the last one). */
export interface Chunk {
  readonly type: string;
  readonly data: Uint8Array;
  readonly complete: boolean;
}

type Visit = (chunk: Chunk) => 'continue' | 'stop';

/** More chunks than this (PNG image data not counted) are an attack, not an image. */
const maxChunks = 1024;

/**
 * PNG chunks after the signature, until IEND or a chunk cut short, or until `visit` answers 'stop'. Image data
 * (`IDAT`) does not count towards `maxChunks`: libpng writes one per 8 KB, over a thousand in a large photo, and
 * stepping over one is a single jump. 'too-many' past the limit.
 */
export function pngChunks(bytes: Uint8Array, visit: Visit): 'done' | 'too-many' {
  let at = 8;
  for (let chunks = 0; chunks < maxChunks; ) {
    if (at + 12 > bytes.length) return 'done';
    const length = u32be(bytes, at);
    const type = ascii(bytes, at + 4, 4);
    if (type === 'IEND' || at + 12 + length > bytes.length) return 'done';
    if (visit({ type, data: bytes.subarray(at + 8, at + 8 + length), complete: true }) === 'stop') return 'done';
    if (type !== 'IDAT') chunks++;
    at += 12 + length;
  }
  return at + 12 > bytes.length ? 'done' : 'too-many';
}

/**
 * WebP (RIFF) chunks from the first one after `WEBP`, sizes little-endian and padded to an even length, until the
 * file ends or `visit` answers 'stop'; a chunk the file cuts short is visited with what there is of it. 'too-many'
 * past `maxChunks`.
 */
export function webpChunks(bytes: Uint8Array, visit: Visit): 'done' | 'too-many' {
  let at = 12;
  for (let chunks = 0; chunks < maxChunks; chunks++) {
    if (at + 8 > bytes.length) return 'done';
    const size = u16le(bytes, at + 4) + u16le(bytes, at + 6) * 0x10000;
    const data = bytes.subarray(at + 8, at + 8 + size);
    if (visit({ type: ascii(bytes, at, 4), data, complete: data.length === size }) === 'stop') return 'done';
    at += 8 + size + (size & 1);
  }
  return at + 8 > bytes.length ? 'done' : 'too-many';
}
