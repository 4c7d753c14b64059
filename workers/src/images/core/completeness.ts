import type { ImageFormat } from '../../shared/image-header/format';
import { walkJpegMarkers } from '../../shared/image-header/jpeg-markers';

// The header itself (format, dimensions, animation) is read by `shared/image-header`, the same readers the priority
// scanner streams through. What is left here is the images Worker's own question about a whole file.

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

/** Every segment passed over, nothing kept: the walk only has to find the image's EOI. */
const toTheEnd = { keep: () => false, segment: () => 'continue' as const };
const unlimited = { maxMarkers: Number.POSITIVE_INFINITY, maxScans: Number.POSITIVE_INFINITY };

/**
 * Whether the file reaches its format's end marker: decoders happily return half-grey pictures for truncated JPEGs,
 * and re-encoding one would bake the damage into a variant. Trailing padding after the marker is tolerated, and
 * after a JPEG's EOI anything is (found by the marker walk, not in the last bytes: until 2026-11-28 a phone photo
 * with a trailer after its image, a motion photo's video or a Samsung SEFT block, was called truncated).
 * `source-checks.ts` takes a JPEG's answer from its own bounded walk (`walkJpeg`) instead.
 */
export function isComplete(bytes: Uint8Array, format: ImageFormat): boolean {
  const tail = bytes.subarray(Math.max(0, bytes.length - 64));
  switch (format) {
    case 'jpeg':
      return walkJpegMarkers(bytes, toTheEnd, unlimited).status.kind === 'ended';
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
