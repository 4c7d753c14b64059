import { u16be } from './bytes';
import { dimensions, type HeaderScan, needMore, unusable } from './scan';

/** SOF0..SOF15 minus DHT (C4), JPG (C8) and DAC (CC), which share the range. */
export const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * JPEG dimensions from the first start-of-frame segment, walking marker segments from the start of a whole (or
 * leading part of a) file, at most `maxScanBytes` of it. The streaming priority scanner (priority/jpeg.ts) reads the
 * same segments as they arrive and goes on to the scans; this is the one-shot read for code that holds the bytes.
 */
export function readJpegFrameHeader(bytes: Uint8Array, maxScanBytes: number): HeaderScan {
  let offset = 2;
  const end = Math.min(bytes.length, maxScanBytes);
  while (offset + 9 < end) {
    if (bytes[offset] !== 0xff) return unusable(`no JPEG marker at byte ${offset}`);
    const marker = bytes[offset + 1] ?? 0;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (isStartOfFrame(marker)) {
      const segmentEnd = offset + 2 + u16be(bytes, offset + 2);
      return dimensions('jpeg', u16be(bytes, offset + 7), u16be(bytes, offset + 5), segmentEnd);
    }
    // End of image or scan data before any frame header.
    if (marker === 0xd9 || marker === 0xda) return unusable('JPEG without a frame header before its data');
    offset += 2 + u16be(bytes, offset + 2);
  }
  return end < bytes.length ? unusable(`no JPEG frame header in the first ${maxScanBytes} bytes`) : needMore;
}
