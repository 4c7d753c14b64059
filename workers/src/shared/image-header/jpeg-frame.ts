import { u16be } from './bytes';
import { isStartOfFrame, type JpegVisitor, walkJpegMarkers } from './jpeg-markers';
import { dimensions, type HeaderScan, needMore, unusable } from './scan';

// The frame header comes before the first scan, so the walk's budgets never bind on a readable file; they only bound
// a hostile one inside `maxScanBytes`.
const frameHeaderLimits = { maxMarkers: 1000, maxScans: 1 };

/**
 * JPEG dimensions from the first start-of-frame segment, walking marker segments (shared/image-header/jpeg-markers.ts)
 * from the start of a whole (or leading part of a) file, at most `maxScanBytes` of it. The streaming priority scanner
 * walks the same way as bytes arrive and goes on to the scans; this is the one-shot read for code that holds the bytes.
 */
export function readJpegFrameHeader(bytes: Uint8Array, maxScanBytes: number): HeaderScan {
  let header: HeaderScan = needMore;
  const firstFrame: JpegVisitor = {
    keep: isStartOfFrame,
    segment({ marker, payload, endBytes }) {
      if (marker === 0xda) return { invalid: 'JPEG without a frame header before its data' };
      if (!payload) return 'continue';
      if (payload.length < 5) return { invalid: 'malformed SOF segment' };
      header = dimensions('jpeg', u16be(payload, 3), u16be(payload, 1), endBytes);
      return 'stop';
    },
  };
  const { status } = walkJpegMarkers(bytes.subarray(0, maxScanBytes), firstFrame, frameHeaderLimits);
  if (status.kind === 'stopped') return header;
  if (status.kind === 'ended') return unusable('JPEG without a frame header before its data');
  if (status.kind === 'invalid') return unusable(status.reason);
  return maxScanBytes < bytes.length ? unusable(`no JPEG frame header in the first ${maxScanBytes} bytes`) : needMore;
}
