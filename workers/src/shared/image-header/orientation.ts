import { avifProperties } from './avif';
import { ascii } from './bytes';
import { pngChunks, webpChunks } from './chunks';
import { directoryEntries, jpegExifTiff, openTiff } from './exif-tiff';
import type { ImageFormat } from './format';
import { jpegSegments } from './jpeg-segments';

// Which way up a file is shown. Browsers turn a JPEG by its EXIF Orientation tag (CSS `image-orientation:
// from-image`, the default since 2020); the codecs hand back the stored pixels, unturned, and a re-encode drops the
// EXIF. So a phone photo whose tag says "rotate 90°" would come out of the Worker lying on its side unless the
// pixels are turned first. Elsewhere the browsers' support differs (a PNG eXIf chunk, a WebP EXIF chunk) or the
// codec does not apply the file's own transform (AVIF `irot`, `imir`, `clap`), so those files are doubts and the
// original is served. Pure, never throws; reads at most `maxScanBytes` and a bounded number of structures.

/** EXIF Orientation: 1 as stored, 2 mirrored, 3 turned 180°, 4 flipped, 5 transposed, 6 turned 90° clockwise, 7
 * transversed, 8 turned 90° anticlockwise (TIFF 6.0, tag 274). */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** The orientation to apply to the decoded pixels, or why the file should be served as it is. */
export type OrientationRead =
  | { readonly ok: true; readonly value: Orientation }
  | { readonly ok: false; readonly reason: string };

const asStored: OrientationRead = { ok: true, value: 1 };
const doubt = (reason: string): OrientationRead => ({ ok: false, reason });

/** Orientations 5–8 swap the width and the height. */
export const swapsAxes = (orientation: Orientation) => orientation >= 5;

/** Headers sit in the first bytes of a file; nothing past this is read. */
const maxScanBytes = 256 * 1024;
/** More boxes than this in an AVIF are an attack, not a photo (the chunk and segment walks have the same limit). */
const maxStructures = 1024;
const orientationTag = 0x0112;
const tiffShort = 3;

/**
 * The orientation in a TIFF structure (an EXIF payload after its `Exif\0\0` prefix): the Orientation entry of the
 * first directory, 1 when there is none. Every offset is checked against `tiff`'s length before it is read.
 */
export function tiffOrientation(tiff: Uint8Array): OrientationRead {
  const read = openTiff(tiff);
  if ('reason' in read) return doubt(read.reason);
  const { u16, u32 } = read;
  const entries = directoryEntries(read, read.firstDirectory);
  if ('reason' in entries) return doubt(entries.reason);
  for (const entry of entries) {
    if (u16(entry) !== orientationTag) continue;
    const value = u16(entry + 8);
    if (u16(entry + 2) !== tiffShort || u32(entry + 4) !== 1 || value < 1 || value > 8) {
      return doubt(`EXIF orientation ${value} is not one of 1 to 8`);
    }
    return { ok: true, value: value as Orientation };
  }
  return asStored;
}

/**
 * A JPEG's orientation from its `Exif` APP1 segments before the first scan. Several that disagree are a doubt (which
 * one a browser honours is not specified).
 */
function jpegOrientation(bytes: Uint8Array): OrientationRead {
  let found: OrientationRead = asStored;
  let seen = false;
  const walked = jpegSegments(bytes.subarray(0, Math.min(bytes.length, maxScanBytes)), (marker, payload) => {
    const tiff = jpegExifTiff(marker, payload);
    if (tiff === null) return 'continue';
    const read = tiffOrientation(tiff);
    if (!read.ok) found = read;
    else if (seen && found.ok && found.value !== read.value)
      found = doubt('two EXIF segments with different orientations');
    else if (found.ok) found = read;
    seen = true;
    return found.ok ? 'continue' : 'stop';
  });
  return walked === 'too-many' ? doubt('more JPEG segments before the first scan than a photo has') : found;
}

/** A PNG's `eXIf` chunk (anywhere before IEND): browsers differ on honouring it, so any turn in it is a doubt. */
function pngOrientation(bytes: Uint8Array): OrientationRead {
  let found: OrientationRead = asStored;
  const walked = pngChunks(bytes, ({ type, data }) => {
    if (type !== 'eXIf') return 'continue';
    found = turnIsDoubt(tiffOrientation(data), 'PNG');
    return 'stop';
  });
  return walked === 'too-many' ? doubt(`more than ${maxStructures} PNG chunks`) : found;
}

/** A WebP's `EXIF` chunk (VP8X files only); some writers keep the `Exif\0\0` prefix inside it. */
function webpOrientation(bytes: Uint8Array): OrientationRead {
  if (ascii(bytes, 12, 4) !== 'VP8X' || ((bytes[20] ?? 0) & 0x08) === 0) return asStored;
  let found: OrientationRead = asStored;
  webpChunks(bytes, ({ type, data }) => {
    if (type !== 'EXIF') return 'continue';
    const tiff = data.length >= 6 && ascii(data, 0, 6) === 'Exif\0\0' ? data.subarray(6) : data;
    found = turnIsDoubt(tiffOrientation(tiff), 'WebP');
    return 'stop';
  });
  return found;
}

/** AVIF transform properties under `meta/iprp/ipco`, which the codec does not apply. */
function avifOrientation(bytes: Uint8Array): OrientationRead {
  const properties = avifProperties(bytes, maxScanBytes, maxStructures);
  if (!properties) return doubt(`more than ${maxStructures} AVIF boxes`);
  const transform = properties.find(({ type }) => type === 'irot' || type === 'imir' || type === 'clap');
  return transform ? doubt(`AVIF ${transform.type} transform`) : asStored;
}

const turnIsDoubt = (read: OrientationRead, format: string): OrientationRead =>
  read.ok && read.value !== 1 ? doubt(`${format} with EXIF orientation ${read.value}`) : read;

/** How the decoded pixels of a whole file must be turned to show as a browser shows the file. */
export function readOrientation(bytes: Uint8Array, format: ImageFormat): OrientationRead {
  try {
    switch (format) {
      case 'jpeg':
        return jpegOrientation(bytes);
      case 'png':
        return pngOrientation(bytes);
      case 'webp':
        return webpOrientation(bytes);
      case 'avif':
        return avifOrientation(bytes);
      case 'gif':
        return asStored;
    }
  } catch {
    return doubt('unreadable orientation');
  }
}
