import { directoryEntries, jpegExifTiff, openTiff } from './exif-tiff';
import { jpegSegments } from './jpeg-segments';

// The size a browser shows a JPEG at when its EXIF says the pixels are denser than 72 per inch. Chromium (and the
// HTML standard's "density-corrected natural width and height") takes a JPEG whose EXIF has ResolutionUnit 2
// (inches), XResolution and YResolution, and PixelXDimension and PixelYDimension equal to the pixel size × 72 ÷ the
// resolution (rounded), as that smaller (or larger) size: a 600×400 photo exported "@2x" at 144 dpi with 300×200 in
// its EXIF has naturalWidth 300 and lays out at 300 CSS pixels. A re-encode drops the EXIF, and the same <img> then
// lays out at 600: checked in Chromium 156, where a PNG eXIf or WebP EXIF chunk with the same fields changes nothing,
// a missing unit or centimetres change nothing, and 143 dpi or 143.5 (as 1435/10) give the rounded sizes.
// Pure, never throws; reads at most `maxScanBytes` and bounded directories.

/** A size in pixels. */
export interface PixelSize {
  readonly width: number;
  readonly height: number;
}

/** Headers sit in the first bytes of a file; nothing past this is read. */
const maxScanBytes = 256 * 1024;
/** The resolution that means "no correction" (CSS pixels are 1/96 in, but the standard's reference is 72). */
const referenceDotsPerInch = 72;
const tags = {
  xResolution: 0x011a,
  yResolution: 0x011b,
  resolutionUnit: 0x0128,
  exifDirectory: 0x8769,
  pixelXDimension: 0xa002,
  pixelYDimension: 0xa003,
} as const;
const inches = 2;
const tiffShort = 3;
const tiffLong = 4;
const tiffRational = 5;

/** The EXIF fields the correction reads, each undefined when absent or not of a type the standard accepts. */
interface DensityFields {
  xDotsPerInch?: number;
  yDotsPerInch?: number;
  unit?: number;
  width?: number;
  height?: number;
}

/** The fields of one TIFF structure (an EXIF payload after its `Exif\0\0` prefix); null when it is malformed. */
function densityFields(tiff: Uint8Array): DensityFields | null {
  const read = openTiff(tiff);
  if ('reason' in read) return null;
  const { u16, u32 } = read;
  const fields: DensityFields = {};
  /** A SHORT or LONG count-1 value held in the entry itself. */
  const integer = (entry: number) => {
    const type = u16(entry + 2);
    if (u32(entry + 4) !== 1) return undefined;
    if (type === tiffShort) return u16(entry + 8);
    return type === tiffLong ? u32(entry + 8) : undefined;
  };
  /** A RATIONAL, stored at the offset the entry holds. */
  const rational = (entry: number) => {
    if (u16(entry + 2) !== tiffRational || u32(entry + 4) !== 1) return undefined;
    const at = u32(entry + 8);
    if (at + 8 > tiff.length) return undefined;
    const denominator = u32(at + 4);
    return denominator === 0 ? undefined : u32(at) / denominator;
  };
  const walk = (directory: number, visit: (tag: number, entry: number) => void) => {
    const entries = directoryEntries(read, directory);
    if ('reason' in entries) return false;
    for (const entry of entries) visit(u16(entry), entry);
    return true;
  };
  let exifDirectory: number | undefined;
  const first = walk(read.firstDirectory, (tag, entry) => {
    if (tag === tags.xResolution) fields.xDotsPerInch = rational(entry);
    else if (tag === tags.yResolution) fields.yDotsPerInch = rational(entry);
    else if (tag === tags.resolutionUnit) fields.unit = integer(entry);
    else if (tag === tags.exifDirectory) exifDirectory = integer(entry);
  });
  if (!first) return null;
  if (exifDirectory !== undefined) {
    walk(exifDirectory, (tag, entry) => {
      if (tag === tags.pixelXDimension) fields.width = integer(entry);
      else if (tag === tags.pixelYDimension) fields.height = integer(entry);
    });
  }
  return fields;
}

/** The size the fields make a browser show `stored` at, or null when they leave it as it is. */
function correctedSize(fields: DensityFields, stored: PixelSize): PixelSize | null {
  const { xDotsPerInch, yDotsPerInch, unit, width, height } = fields;
  if (unit !== inches || !xDotsPerInch || !yDotsPerInch || !width || !height) return null;
  if (width === stored.width && height === stored.height) return null;
  // Within one pixel of the standard's rounded match: a wider net than the browser's only ever serves an original.
  const matches = (pixels: number, dotsPerInch: number, claimed: number) =>
    Math.abs((pixels * referenceDotsPerInch) / dotsPerInch - claimed) < 1;
  return matches(stored.width, xDotsPerInch, width) && matches(stored.height, yDotsPerInch, height)
    ? { width, height }
    : null;
}

/**
 * The size a browser lays a whole JPEG out at by its EXIF density (`stored`: its frame's width and height), or null
 * when that is its pixel size. Any `Exif` segment before the first scan that corrects it counts (which of several a
 * browser reads is not specified); a malformed one corrects nothing, as in the browser.
 */
export function jpegDensityCorrectedSize(bytes: Uint8Array, stored: PixelSize): PixelSize | null {
  let corrected: PixelSize | null = null;
  try {
    jpegSegments(bytes.subarray(0, Math.min(bytes.length, maxScanBytes)), (marker, payload) => {
      const tiff = jpegExifTiff(marker, payload);
      if (tiff === null) return 'continue';
      const fields = densityFields(tiff);
      corrected = fields && correctedSize(fields, stored);
      return corrected ? 'stop' : 'continue';
    });
  } catch {
    return null;
  }
  return corrected;
}
