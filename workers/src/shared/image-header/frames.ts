import { ascii } from './bytes';
import { pngChunks } from './chunks';
import type { ImageFormat } from './format';

// Whether a file holds several frames (animated GIF, APNG, animated WebP, AVIF image sequence): re-encoding would keep
// only the first, so such files are served as they are. Read from a whole file, GIF within `maxScanBytes`.

/**
 * APNG declares itself with an `acTL` chunk before the first `IDAT`. The whole chunk list up to there is walked, not
 * only the first `maxScanBytes`: each step is one jump over a chunk's data, and metadata before the image (XMP in
 * `iTXt`, an `iCCP`, a thumbnail) can be larger than any fixed window (until 2026-11-28 an APNG with its `acTL` behind
 * a 300 KB text chunk became a still AVIF). More chunks before the image data than `pngChunks` walks is a doubt too.
 */
function pngAnimated(bytes: Uint8Array): boolean {
  let animated = false;
  let imageData = false;
  const walked = pngChunks(bytes, ({ type }) => {
    animated = type === 'acTL';
    imageData = type === 'IDAT';
    return animated || imageData ? 'stop' : 'continue';
  });
  return animated || (walked === 'too-many' && !imageData);
}

/** More than one image descriptor means animation; walks blocks instead of trusting the NETSCAPE extension. */
function gifAnimated(bytes: Uint8Array, maxScanBytes: number): boolean {
  const flags = bytes[10] ?? 0;
  let offset = 13 + (flags & 0x80 ? 3 * 2 ** ((flags & 0x07) + 1) : 0);
  let frames = 0;
  const skipSubBlocks = (start: number) => {
    let at = start;
    while (at < bytes.length && bytes[at] !== 0) at += (bytes[at] ?? 0) + 1;
    return at + 1;
  };
  while (offset < Math.min(bytes.length, maxScanBytes)) {
    const block = bytes[offset];
    if (block === 0x2c) {
      frames += 1;
      if (frames > 1) return true;
      const localFlags = bytes[offset + 9] ?? 0;
      offset += 10 + (localFlags & 0x80 ? 3 * 2 ** ((localFlags & 0x07) + 1) : 0);
      offset = skipSubBlocks(offset + 1); // LZW minimum code size, then data
    } else if (block === 0x21) {
      offset = skipSubBlocks(offset + 2);
    } else {
      return false;
    }
  }
  return false;
}

/**
 * Several frames? `avifMajorBrand` is the `ftyp` major brand the AVIF reader found (`avis` = image sequence).
 */
export function isAnimated(
  bytes: Uint8Array,
  format: ImageFormat,
  maxScanBytes: number,
  avifMajorBrand?: string,
): boolean {
  switch (format) {
    case 'png':
      return pngAnimated(bytes);
    case 'gif':
      return gifAnimated(bytes, maxScanBytes);
    case 'webp':
      // VP8X's flags byte: bit 1 is "animation".
      return ascii(bytes, 12, 4) === 'VP8X' && ((bytes[20] ?? 0) & 0x02) !== 0;
    case 'avif':
      return avifMajorBrand === 'avis';
    case 'jpeg':
      return false;
  }
}
