import type { ImageFormat } from './formats';

/** What an image's own header says, read without decoding any pixels. */
export interface ImageHeader {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** Several frames (animated GIF, APNG, animated WebP, AVIF image sequence). */
  readonly animated: boolean;
}

// Headers sit in the first bytes; a bounded scan keeps a hostile file from making us walk megabytes.
const maxScanBytes = 256 * 1024;

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

/**
 * Recognises JPEG, PNG, GIF, WebP and AVIF from their bytes and reads the dimensions from the header, so limits are
 * enforced before a decoder allocates anything. Never throws.
 * @returns `null` for anything that is not one of those formats or whose header is cut short or nonsensical
 */
export function readImageHeader(bytes: Uint8Array): ImageHeader | null {
  try {
    const header = sniff(bytes);
    if (!header || !(header.width > 0) || !(header.height > 0)) return null;
    return header;
  } catch {
    return null;
  }
}

/**
 * The format from the magic number alone (no dimensions): for bodies too large to read whole, to tell a large image
 * (passed through) from anything else (refused). Never throws.
 */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const text = ascii(head, 0, Math.min(head.length, 12));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (text.startsWith('\x89PNG\r\n\x1a\n')) return 'png';
  if (text.startsWith('GIF87a') || text.startsWith('GIF89a')) return 'gif';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'webp';
  if (text.slice(4, 8) === 'ftyp') {
    const brands = ascii(head, 8, Math.min(head.length, 64) - 8);
    return /avif|avis/.test(brands) ? 'avif' : null;
  }
  return null;
}

function sniff(bytes: Uint8Array): ImageHeader | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.length >= 24 && view.getUint32(0) === 0x89504e47 && view.getUint32(4) === 0x0d0a1a0a) {
    if (ascii(bytes, 12, 4) !== 'IHDR') return null;
    return { format: 'png', width: view.getUint32(16), height: view.getUint32(20), animated: pngAnimated(bytes, view) };
  }
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return jpegHeader(bytes, view);
  if (bytes.length >= 10 && (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a')) {
    return {
      format: 'gif',
      width: view.getUint16(6, true),
      height: view.getUint16(8, true),
      animated: gifAnimated(bytes),
    };
  }
  if (bytes.length >= 30 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP')
    return webpHeader(bytes, view);
  if (bytes.length >= 16 && ascii(bytes, 4, 4) === 'ftyp') return avifHeader(bytes, view);
  return null;
}

/** APNG declares itself with an `acTL` chunk before the first `IDAT`. */
function pngAnimated(bytes: Uint8Array, view: DataView): boolean {
  let offset = 8;
  while (offset + 8 <= Math.min(bytes.length, maxScanBytes)) {
    const type = ascii(bytes, offset + 4, 4);
    if (type === 'acTL') return true;
    if (type === 'IDAT') return false;
    offset += 12 + view.getUint32(offset);
  }
  return false;
}

/** Walks marker segments to the first start-of-frame (SOF0–SOF15 except DHT, JPG and DAC). */
function jpegHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  let offset = 2;
  const end = Math.min(bytes.length, maxScanBytes);
  while (offset + 9 < end) {
    if (bytes[offset] !== 0xff) return null;
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { format: 'jpeg', height: view.getUint16(offset + 5), width: view.getUint16(offset + 7), animated: false };
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
    offset += 2 + view.getUint16(offset + 2);
  }
  return null;
}

/** More than one image descriptor means animation; walks blocks instead of trusting the NETSCAPE extension. */
function gifAnimated(bytes: Uint8Array): boolean {
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

function webpHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8X') {
    const width = 1 + (view.getUint32(24, true) & 0xffffff);
    const height = 1 + (view.getUint32(27, true) & 0xffffff);
    return { format: 'webp', width, height, animated: ((bytes[20] ?? 0) & 0x02) !== 0 };
  }
  if (chunk === 'VP8 ') {
    // Lossy: the key frame's start code 9d 01 2a, then 14-bit width and height.
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return {
      format: 'webp',
      width: view.getUint16(26, true) & 0x3fff,
      height: view.getUint16(28, true) & 0x3fff,
      animated: false,
    };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = view.getUint32(21, true);
    return { format: 'webp', width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff), animated: false };
  }
  return null;
}

/**
 * AVIF: an `ftyp` box with an AVIF brand; dimensions from the largest `ispe` property in the scanned window. The
 * largest, not the first: a file can declare a 1×1 thumbnail or alpha plane first and a 100 MP primary image after
 * it, and the limits must see the image the decoder will produce.
 */
function avifHeader(bytes: Uint8Array, view: DataView): ImageHeader | null {
  const boxBytes = view.getUint32(0);
  const brands: string[] = [];
  for (let offset = 8; offset + 4 <= Math.min(boxBytes, 64, bytes.length); offset += 4) {
    brands.push(ascii(bytes, offset, 4));
  }
  if (!brands.includes('avif') && !brands.includes('avis')) return null;
  const end = Math.min(bytes.length, maxScanBytes) - 16;
  let best: { width: number; height: number } | null = null;
  for (let offset = boxBytes; offset < end; offset += 1) {
    // 'ispe' box: size, type, version+flags, width, height.
    if (bytes[offset] === 0x69 && ascii(bytes, offset, 4) === 'ispe') {
      const width = view.getUint32(offset + 8);
      const height = view.getUint32(offset + 12);
      if (!best || width * height > best.width * best.height) best = { width, height };
    }
  }
  return best ? { format: 'avif', ...best, animated: brands[0] === 'avis' } : null;
}

/**
 * Whether the file reaches its format's end marker: decoders happily return half-grey pictures for truncated JPEGs,
 * and re-encoding one would bake the damage into a variant. Trailing padding after the marker is tolerated.
 */
export function isComplete(bytes: Uint8Array, format: ImageFormat): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  switch (format) {
    case 'jpeg':
      return tail.some((byte, index) => byte === 0xff && tail[index + 1] === 0xd9);
    case 'png':
      return ascii(tail, 0, tail.length).includes('IEND');
    case 'gif':
      return tail.includes(0x3b);
    case 'webp':
      return bytes.length >= 8 + new DataView(bytes.buffer, bytes.byteOffset, 8).getUint32(4, true);
    case 'avif':
      return boxesFit(bytes);
  }
}

/** ISO-BMFF: every top-level box must fit inside the file. */
function boxesFit(bytes: Uint8Array): boolean {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  while (offset + 8 <= bytes.length) {
    const size = view.getUint32(offset);
    if (size < 8) return size === 0; // 0 = box extends to the end of the file
    offset += size;
  }
  return offset === bytes.length;
}
