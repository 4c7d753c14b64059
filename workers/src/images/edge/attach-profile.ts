import { type Box, boxAt } from '../../shared/image-header/avif';
import { concatBytes, u32be as readU32be } from '../../shared/image-header/bytes';
import type { TargetFormat } from '../core/formats';

// Copies a source's ICC profile into an encoded variant, so browsers paint its numbers as they painted the
// original's (shared/image-header/colour-profile.ts says which profiles are carried). The encoders write no profile;
// each format has its own place for one: WebP an `ICCP` chunk after `VP8X`, JPEG `ICC_PROFILE` APP2 segments, PNG
// a compressed `iCCP` chunk before the image data, AVIF a `colr` (`prof`) item property associated with the primary
// image, which moves the image data and so every file offset in `iloc`. Each writer checks the structure it edits
// and throws on anything it does not expect; callers then serve the original.

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

const u32le = (value: number) => new Uint8Array([value, value >>> 8, value >>> 16, value >>> 24]);
const u24le = (value: number) => new Uint8Array([value, value >>> 8, value >>> 16]);
const u32be = (value: number) => new Uint8Array([value >>> 24, value >>> 16, value >>> 8, value]);

/** A RIFF chunk, padded to an even length as RIFF requires. */
const riffChunk = (type: string, data: Uint8Array) =>
  concatBytes([ascii(type), u32le(data.length), data, data.length % 2 ? new Uint8Array(1) : new Uint8Array(0)]);

/**
 * WebP: an extended file (`VP8X` with the ICC flag, 0x20) whose `ICCP` chunk comes right after `VP8X`, before the
 * image data, as the container spec orders them. A simple file (`VP8 ` or `VP8L` alone) gets a `VP8X` first, with the
 * canvas size and, for lossless with an alpha channel, the alpha flag.
 */
function attachToWebp(webp: Uint8Array, icc: Uint8Array, width: number, height: number): Uint8Array {
  const text = (from: number) => String.fromCharCode(...webp.subarray(from, from + 4));
  const first = text(12);
  if (text(0) !== 'RIFF' || text(8) !== 'WEBP' || !['VP8X', 'VP8 ', 'VP8L'].includes(first) || webp.length < 30) {
    throw new Error('WebP: not a file this writer knows');
  }
  const iccp = riffChunk('ICCP', icc);
  let body: Uint8Array;
  if (first === 'VP8X') {
    if (webp[16] !== 10 || webp[17] !== 0) throw new Error('WebP: a VP8X chunk of another size');
    const vp8x = webp.slice(12, 30);
    vp8x[8] = (vp8x[8] as number) | 0x20;
    body = concatBytes([vp8x, iccp, webp.subarray(30)]);
  } else {
    // VP8L's header: signature 0x2f, 14 bits width − 1, 14 bits height − 1, then the alpha-is-used bit.
    const alpha = first === 'VP8L' && ((webp[20 + 4] as number) & 0x10) !== 0;
    const vp8x = riffChunk(
      'VP8X',
      concatBytes([new Uint8Array([0x20 | (alpha ? 0x10 : 0), 0, 0, 0]), u24le(width - 1), u24le(height - 1)]),
    );
    body = concatBytes([vp8x, iccp, webp.subarray(12)]);
  }
  return concatBytes([ascii('RIFF'), u32le(4 + body.length), ascii('WEBP'), body]);
}

/** Profile bytes per APP2 segment: 65,535 − 2 (length) − 14 (`ICC_PROFILE\0`, sequence, count). */
const jpegChunkBytes = 65_519;

/** JPEG: numbered `ICC_PROFILE` APP2 segments after SOI and the JFIF APP0 segment, if there is one. */
function attachToJpeg(jpeg: Uint8Array, icc: Uint8Array): Uint8Array {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error('JPEG: no SOI');
  const count = Math.ceil(icc.length / jpegChunkBytes);
  const segments = Array.from({ length: count }, (_, index) => {
    const part = icc.subarray(index * jpegChunkBytes, (index + 1) * jpegChunkBytes);
    const length = 2 + 14 + part.length;
    return concatBytes([
      new Uint8Array([0xff, 0xe2, length >> 8, length & 0xff]),
      ascii('ICC_PROFILE\0'),
      new Uint8Array([index + 1, count]),
      part,
    ]);
  });
  let at = 2;
  if (jpeg[2] === 0xff && jpeg[3] === 0xe0) at += 2 + (((jpeg[4] as number) << 8) | (jpeg[5] as number));
  return concatBytes([jpeg.subarray(0, at), ...segments, jpeg.subarray(at)]);
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
  const typeAndData = concatBytes([ascii('iCCP'), ascii('ICC profile\0'), new Uint8Array([0]), await deflate(icc)]);
  const iccp = concatBytes([u32be(typeAndData.length - 4), typeAndData, u32be(crc32(typeAndData))]);
  if (png[1] !== 0x50 || png[2] !== 0x4e || png[3] !== 0x47) throw new Error('PNG: no signature');
  const parts: Uint8Array[] = [png.subarray(0, 8)];
  let at = 8;
  let header = false;
  while (at + 12 <= png.length) {
    const length = new DataView(png.buffer, png.byteOffset + at, 4).getUint32(0);
    const type = String.fromCharCode(...png.subarray(at + 4, at + 8));
    if (at + 12 + length > png.length) break;
    if (type !== 'sRGB' && type !== 'gAMA' && type !== 'cHRM' && type !== 'iCCP')
      parts.push(png.subarray(at, at + 12 + length));
    if (type === 'IHDR' && !header) {
      parts.push(iccp);
      header = true;
    }
    at += 12 + length;
  }
  if (!header || at !== png.length) throw new Error('PNG: chunks this writer does not follow');
  return concatBytes(parts);
}

/**
 * The boxes between `from` and `to` (avif.ts `boxAt`); throws on one that is cut, does not fit, or has a 64-bit or
 * to-the-end size, which this writer does not rewrite (libavif writes neither inside `meta`).
 */
function boxes(bytes: Uint8Array, from: number, to: number): Box[] {
  const found: Box[] = [];
  for (let at = from; at < to; ) {
    const box = boxAt(bytes, at, to);
    // A compact header: 32-bit size, not 1 (64-bit) nor 0 (to the end).
    if (box === undefined || box === 'bad' || box.body !== at + 8 || readU32be(bytes, at) === 0) {
      throw new Error('AVIF: a box size this writer does not handle');
    }
    found.push(box);
    at = box.end;
  }
  return found;
}

/** A box of `type` with `body`, its size computed. */
const box = (type: string, ...body: Uint8Array[]) => {
  const content = concatBytes(body);
  return concatBytes([u32be(8 + content.length), ascii(type), content]);
};

/**
 * `ipma` with `index` added to the primary item's associations (not essential: a decoder that ignores colour
 * profiles may still show the image).
 */
function withAssociation(ipma: Uint8Array, primary: number, index: number): Uint8Array {
  const view = new DataView(ipma.buffer, ipma.byteOffset, ipma.byteLength);
  const version = ipma[8] as number;
  const wide = ((ipma[11] as number) & 1) === 1;
  if (index > (wide ? 0x7fff : 0x7f)) throw new Error('AVIF: too many item properties');
  const entries = view.getUint32(12);
  const parts: Uint8Array[] = [ipma.subarray(8, 16)];
  let at = 16;
  let added = false;
  for (let entry = 0; entry < entries; entry++) {
    const idBytes = version < 1 ? 2 : 4;
    const item = idBytes === 2 ? view.getUint16(at) : view.getUint32(at);
    const count = ipma[at + idBytes] as number;
    const end = at + idBytes + 1 + count * (wide ? 2 : 1);
    if (end > ipma.length) throw new Error('AVIF: ipma is cut');
    if (item === primary) {
      if (count === 255) throw new Error('AVIF: the primary item has too many properties');
      const header = ipma.slice(at, at + idBytes + 1);
      header[idBytes] = count + 1;
      parts.push(
        header,
        ipma.subarray(at + idBytes + 1, end),
        wide ? new Uint8Array([index >> 8, index & 0xff]) : new Uint8Array([index]),
      );
      added = true;
    } else {
      parts.push(ipma.subarray(at, end));
    }
    at = end;
  }
  if (!added) throw new Error('AVIF: the primary item has no properties');
  return box('ipma', ...parts);
}

/** `iloc` with every file offset past `after` moved by `delta` bytes (data inside `idat` does not move). */
function shiftedIloc(iloc: Uint8Array, after: number, delta: number): Uint8Array {
  const out = iloc.slice();
  const view = new DataView(out.buffer);
  const version = out[8] as number;
  if (version > 2) throw new Error(`AVIF: iloc version ${version}`);
  const offsetSize = (out[12] as number) >> 4;
  const lengthSize = (out[12] as number) & 0x0f;
  const baseSize = (out[13] as number) >> 4;
  const indexSize = version > 0 ? (out[13] as number) & 0x0f : 0;
  let at = 14;
  const read = (size: number) => {
    if (at + size > out.length) throw new Error('AVIF: iloc is cut');
    const value =
      size === 0 ? 0 : size === 4 ? view.getUint32(at) : size === 8 ? Number(view.getBigUint64(at)) : Number.NaN;
    if (Number.isNaN(value)) throw new Error(`AVIF: iloc field of ${size} bytes`);
    return value;
  };
  const shift = (size: number) => {
    const value = read(size);
    if (value >= after) {
      if (size === 4) view.setUint32(at, value + delta);
      else view.setBigUint64(at, BigInt(value + delta));
    }
    at += size;
  };
  if (at + 4 > out.length) throw new Error('AVIF: iloc is cut');
  const items = version < 2 ? view.getUint16(at) : view.getUint32(at);
  at += version < 2 ? 2 : 4;
  for (let item = 0; item < items; item++) {
    at += version < 2 ? 2 : 4;
    const method = version > 0 ? view.getUint16(at) & 0x0f : 0;
    if (version > 0) at += 2;
    at += 2; // data reference index
    if (method > 1) throw new Error('AVIF: an item constructed from other items');
    const fileOffsets = method === 0;
    if (fileOffsets && baseSize > 0) shift(baseSize);
    else at += baseSize;
    if (at + 2 > out.length) throw new Error('AVIF: iloc is cut');
    const extents = view.getUint16(at);
    at += 2;
    for (let extent = 0; extent < extents; extent++) {
      at += indexSize;
      if (fileOffsets && baseSize === 0) {
        if (offsetSize === 0) throw new Error('AVIF: an item without offsets');
        shift(offsetSize);
      } else at += offsetSize;
      at += lengthSize;
    }
  }
  if (at > out.length) throw new Error('AVIF: iloc is cut');
  return out;
}

/**
 * AVIF: a `colr` box of type `prof` appended to `ipco` and associated with the primary item in `ipma`; `meta` grows,
 * so the image data after it moves and `iloc`'s file offsets move with it.
 */
function attachToAvif(avif: Uint8Array, icc: Uint8Array): Uint8Array {
  const top = boxes(avif, 0, avif.length);
  const meta = top.find((b) => b.type === 'meta');
  if (!meta) throw new Error('AVIF: no meta box');
  const children = boxes(avif, meta.start + 12, meta.end);
  const pitm = children.find((b) => b.type === 'pitm');
  const iprp = children.find((b) => b.type === 'iprp');
  if (!pitm || !iprp || !children.some((b) => b.type === 'iloc'))
    throw new Error('AVIF: meta without pitm, iloc or iprp');
  const pitmView = new DataView(avif.buffer, avif.byteOffset + pitm.start, pitm.end - pitm.start);
  const primary = avif[pitm.start + 8] === 0 ? pitmView.getUint16(12) : pitmView.getUint32(12);
  const properties = boxes(avif, iprp.start + 8, iprp.end);
  const ipco = properties.find((b) => b.type === 'ipco');
  const ipmas = properties.filter((b) => b.type === 'ipma');
  if (!ipco || ipmas.length !== 1) throw new Error('AVIF: iprp without ipco or with several ipma');
  const existing = boxes(avif, ipco.start + 8, ipco.end);
  const colr = box('colr', ascii('prof'), icc);
  const newIpco = box('ipco', avif.subarray(ipco.start + 8, ipco.end), colr);
  const newIprp = box(
    'iprp',
    ...properties.map((b) =>
      b === ipco
        ? newIpco
        : b.type === 'ipma'
          ? withAssociation(avif.subarray(b.start, b.end), primary, existing.length + 1)
          : avif.subarray(b.start, b.end),
    ),
  );
  const delta = newIprp.length - (iprp.end - iprp.start);
  const newMeta = box(
    'meta',
    avif.subarray(meta.start + 8, meta.start + 12),
    ...children.map((b) =>
      b === iprp
        ? newIprp
        : b.type === 'iloc'
          ? shiftedIloc(avif.subarray(b.start, b.end), meta.end, delta)
          : avif.subarray(b.start, b.end),
    ),
  );
  return concatBytes([avif.subarray(0, meta.start), newMeta, avif.subarray(meta.end)]);
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
      return attachToAvif(encoded, icc);
  }
}
