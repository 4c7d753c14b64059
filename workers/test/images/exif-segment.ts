/** `jpeg` with an `Exif` APP1 segment holding `tiff` (a TIFF structure) inserted after its SOI. */
export function withExif(jpeg: Uint8Array, tiff: Uint8Array): Uint8Array {
  const segment = new Uint8Array(4 + 6 + tiff.length);
  segment.set([0xff, 0xe1, (segment.length - 2) >> 8, (segment.length - 2) & 0xff], 0);
  segment.set(
    [...'Exif\0\0'].map((c) => c.charCodeAt(0)),
    4,
  );
  segment.set(tiff, 10);
  const out = new Uint8Array(jpeg.length + segment.length);
  out.set(jpeg.subarray(0, 2), 0);
  out.set(segment, 2);
  out.set(jpeg.subarray(2), 2 + segment.length);
  return out;
}
