import type { ImageFormat } from '../../shared/image-header/format';

// The header itself (format, dimensions, animation) is read by `shared/image-header`, the same readers the priority
// scanner streams through. What is left here is the images Worker's own question about a whole file.

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

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
