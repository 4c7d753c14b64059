import { ascii, u16le, u24le, u32be } from './bytes';
import { unusable as invalid, dimensions as layout, needMore as more, type HeaderScan as ScanResult } from './scan';

// Header readers for PNG, GIF and WebP. Each takes the bytes seen so far and answers `more` until the dimensions are
// known; none needs more than a few dozen bytes except a GIF's global palette.

/** PNG: signature, then IHDR must be the first chunk; the header ends after IHDR's CRC (byte 33). */
export function readPngHeader(b: Uint8Array): ScanResult {
  if (b.length < 33) return more;
  if (ascii(b, 12, 4) !== 'IHDR' || u32be(b, 8) !== 13) return invalid('PNG does not start with IHDR');
  return layout('png', u32be(b, 16), u32be(b, 20), 33);
}

/** GIF: logical screen descriptor (13 bytes) plus the global colour table, which every frame needs to be drawn. */
export function readGifHeader(b: Uint8Array): ScanResult {
  if (b.length < 13) return more;
  const version = ascii(b, 0, 6);
  if (version !== 'GIF87a' && version !== 'GIF89a') return invalid('not a GIF87a/GIF89a header');
  const flags = b[10] as number;
  const paletteBytes = flags & 0x80 ? 3 * (1 << ((flags & 7) + 1)) : 0;
  if (b.length < 13 + paletteBytes) return more;
  return layout('gif', u16le(b, 6), u16le(b, 8), 13 + paletteBytes);
}

/** WebP: RIFF container; the first chunk is VP8 (lossy), VP8L (lossless) or VP8X (extended, canvas size). */
export function readWebpHeader(b: Uint8Array): ScanResult {
  if (b.length < 30) return more;
  if (ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 4) !== 'WEBP') return invalid('not a RIFF WEBP file');
  const chunk = ascii(b, 12, 4);
  if (chunk === 'VP8X') return layout('webp', u24le(b, 24) + 1, u24le(b, 27) + 1, 30);
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return invalid('VP8L chunk without its signature byte');
    const bits = (b[21] as number) | ((b[22] as number) << 8) | ((b[23] as number) << 16) | ((b[24] as number) << 24);
    return layout('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1, 25);
  }
  if (chunk === 'VP8 ') {
    if (b[23] !== 0x9d || b[24] !== 0x01 || b[25] !== 0x2a) return invalid('VP8 chunk without its start code');
    return layout('webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff, 30);
  }
  return invalid(`unknown first WebP chunk ${JSON.stringify(chunk)}`);
}
