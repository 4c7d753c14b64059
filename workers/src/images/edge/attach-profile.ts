import type { TargetFormat } from '../core/formats';

// Copies a source's ICC profile into an encoded variant, so browsers paint its numbers as they painted the
// original's (shared/image-header/colour-profile.ts says which profiles are carried). The encoders write no profile;
// each format has its own place for one: WebP an `ICCP` chunk after `VP8X`, JPEG `ICC_PROFILE` APP2 segments, PNG
// a compressed `iCCP` chunk before the image data. AVIF would need a `colr` property wired into its item
// properties; it is not offered for such sources instead.

/** Formats a profile can be attached to here. */
export const carriesProfile = (format: TargetFormat) => format !== 'avif';

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

const u32le = (value: number) => new Uint8Array([value, value >>> 8, value >>> 16, value >>> 24]);
const u24le = (value: number) => new Uint8Array([value, value >>> 8, value >>> 16]);
const u32be = (value: number) => new Uint8Array([value >>> 24, value >>> 16, value >>> 8, value]);

/** A RIFF chunk, padded to an even length as RIFF requires. */
const riffChunk = (type: string, data: Uint8Array) =>
  concat([ascii(type), u32le(data.length), data, data.length % 2 ? new Uint8Array(1) : new Uint8Array(0)]);

/**
 * WebP: an extended file (`VP8X` with the ICC flag, 0x20) whose `ICCP` chunk comes right after `VP8X`, before the
 * image data, as the container spec orders them. A simple file (`VP8 ` or `VP8L` alone) gets a `VP8X` first, with the
 * canvas size and, for lossless with an alpha channel, the alpha flag.
 */
function attachToWebp(webp: Uint8Array, icc: Uint8Array, width: number, height: number): Uint8Array {
  const first = String.fromCharCode(...webp.subarray(12, 16));
  const iccp = riffChunk('ICCP', icc);
  let body: Uint8Array;
  if (first === 'VP8X') {
    const vp8x = webp.slice(12, 30);
    vp8x[8] = (vp8x[8] as number) | 0x20;
    body = concat([vp8x, iccp, webp.subarray(30)]);
  } else {
    // VP8L's header: signature 0x2f, 14 bits width − 1, 14 bits height − 1, then the alpha-is-used bit.
    const alpha = first === 'VP8L' && ((webp[20 + 4] as number) & 0x10) !== 0;
    const vp8x = riffChunk(
      'VP8X',
      concat([new Uint8Array([0x20 | (alpha ? 0x10 : 0), 0, 0, 0]), u24le(width - 1), u24le(height - 1)]),
    );
    body = concat([vp8x, iccp, webp.subarray(12)]);
  }
  return concat([ascii('RIFF'), u32le(4 + body.length), ascii('WEBP'), body]);
}

/** Profile bytes per APP2 segment: 65,535 − 2 (length) − 14 (`ICC_PROFILE\0`, sequence, count). */
const jpegChunkBytes = 65_519;

/** JPEG: numbered `ICC_PROFILE` APP2 segments after SOI and the JFIF APP0 segment, if there is one. */
function attachToJpeg(jpeg: Uint8Array, icc: Uint8Array): Uint8Array {
  const count = Math.ceil(icc.length / jpegChunkBytes);
  const segments = Array.from({ length: count }, (_, index) => {
    const part = icc.subarray(index * jpegChunkBytes, (index + 1) * jpegChunkBytes);
    const length = 2 + 14 + part.length;
    return concat([
      new Uint8Array([0xff, 0xe2, length >> 8, length & 0xff]),
      ascii('ICC_PROFILE\0'),
      new Uint8Array([index + 1, count]),
      part,
    ]);
  });
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at += 2 + (((jpeg[4] as number) << 8) | (jpeg[5] as number));
  return concat([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)]);
}

const crcTable = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 of a PNG chunk's type and data (ISO 3309, as the PNG spec gives it). */
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * PNG: an `iCCP` chunk (name, compression method 0, the zlib-compressed profile) after `IHDR`; any `sRGB`, `gAMA`
 * or `cHRM` the encoder wrote is dropped, since a PNG with `iCCP` must not also claim sRGB.
 */
async function attachToPng(png: Uint8Array, icc: Uint8Array): Promise<Uint8Array> {
  const typeAndData = concat([ascii('iCCP'), ascii('ICC profile\0'), new Uint8Array([0]), await deflate(icc)]);
  const iccp = concat([u32be(typeAndData.length - 4), typeAndData, u32be(crc32(typeAndData))]);
  const parts: Uint8Array[] = [png.subarray(0, 8)];
  for (let at = 8; at + 12 <= png.length; ) {
    const view = new DataView(png.buffer, png.byteOffset + at, 8);
    const length = view.getUint32(0);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    const whole = png.subarray(at, at + 12 + length);
    if (type !== 'sRGB' && type !== 'gAMA' && type !== 'cHRM' && type !== 'iCCP') parts.push(whole);
    if (type === 'IHDR') parts.push(iccp);
    at += 12 + length;
  }
  return concat(parts);
}

/** The encoded variant with `icc` attached; `width` and `height` are the variant's. */
export async function attachProfile(
  encoded: Uint8Array,
  format: TargetFormat,
  icc: Uint8Array,
  width: number,
  height: number,
): Promise<Uint8Array> {
  switch (format) {
    case 'webp':
      return attachToWebp(encoded, icc, width, height);
    case 'jpeg':
    case 'baseline-jpeg':
      return attachToJpeg(encoded, icc);
    case 'png':
      return attachToPng(encoded, icc);
    case 'avif':
      throw new Error('an ICC profile cannot be attached to AVIF here');
  }
}
