import { ascii, u16be, u16le, u32be } from './bytes';

// The TIFF structure inside EXIF, as the orientation and density readers both walk it: the byte order, the header,
// and a directory's entries, every offset checked against the structure's length before it is read.

/** A TIFF directory with more entries than this is not one a camera wrote. */
const maxIfdEntries = 512;

/** An EXIF payload's TIFF structure, read in its byte order. */
export interface Tiff {
  readonly length: number;
  u16(at: number): number;
  u32(at: number): number;
  /** Offset of the first directory (IFD0). */
  readonly firstDirectory: number;
}

/** Why a TIFF structure or one of its directories cannot be read. */
export interface TiffFault {
  readonly reason: string;
}

/** The TIFF structure of an EXIF payload (after its `Exif\0\0` prefix), or why it is not one. */
export function openTiff(tiff: Uint8Array): Tiff | TiffFault {
  if (tiff.length < 8) return { reason: 'EXIF shorter than a TIFF header' };
  const order = ascii(tiff, 0, 2);
  if (order !== 'II' && order !== 'MM') return { reason: 'EXIF with an unknown byte order' };
  const little = order === 'II';
  const u16 = (at: number) => (little ? u16le(tiff, at) : u16be(tiff, at));
  const u32 = (at: number) => (little ? u16le(tiff, at) + u16le(tiff, at + 2) * 0x10000 : u32be(tiff, at));
  if (u16(2) !== 42) return { reason: 'EXIF is not TIFF' };
  return { length: tiff.length, u16, u32, firstDirectory: u32(4) };
}

/** The offsets of the 12-byte entries of the directory at `directory`, or why they cannot be read. */
export function directoryEntries(tiff: Tiff, directory: number): number[] | TiffFault {
  if (directory < 8 || directory + 2 > tiff.length) return { reason: 'EXIF directory outside its segment' };
  const count = tiff.u16(directory);
  if (count > maxIfdEntries || directory + 2 + count * 12 > tiff.length) return { reason: 'EXIF directory cut short' };
  return Array.from({ length: count }, (_, index) => directory + 2 + index * 12);
}

/** The TIFF structure in a JPEG segment when it is an `Exif` APP1 segment, else null. */
export function jpegExifTiff(marker: number, payload: Uint8Array): Uint8Array | null {
  return marker === 0xe1 && payload.length >= 6 && ascii(payload, 0, 6) === 'Exif\0\0' ? payload.subarray(6) : null;
}
