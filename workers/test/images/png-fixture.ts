// PNGs built byte by byte (zlib through the runtime's CompressionStream), so a test can make the exact pixels it needs:
// alpha, 16-bit channels.

import { concatBytes } from '../../src/shared/image-header/bytes';

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const crc32 = (bytes: Uint8Array) => {
  let c = 0xffffffff;
  for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const be32 = (n: number) => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

const chunk = (type: string, data: Uint8Array) => {
  const typed = new Uint8Array([...new TextEncoder().encode(type), ...data]);
  return [...be32(data.length), ...typed, ...be32(crc32(typed))];
};

/** One PNG chunk with its length and CRC. */
export const pngChunk = (type: string, data: Uint8Array | readonly number[]) =>
  new Uint8Array(chunk(type, Uint8Array.from(data)));

/** `png` with `chunks` inserted right after IHDR (the 33-byte signature and header). */
export const withChunksAfterHeader = (png: Uint8Array, ...chunks: Uint8Array[]) =>
  concatBytes([png.subarray(0, 33), ...chunks, png.subarray(33)]);

/** An APNG's animation control chunk: `frames` frames, looping forever. */
export const acTL = (frames: number) => pngChunk('acTL', [...be32(frames), ...be32(0)]);

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** An RGBA PNG (colour type 6) of `depth` bits per channel; `rgba(x, y)` gives 8-bit values, repeated for 16. */
export async function rgbaPng(
  width: number,
  height: number,
  rgba: (x: number, y: number) => readonly number[],
  depth: 8 | 16 = 8,
): Promise<Uint8Array> {
  const rows: number[] = [];
  for (let y = 0; y < height; y += 1) {
    rows.push(0); // filter: none
    for (let x = 0; x < width; x += 1)
      for (const value of rgba(x, y)) rows.push(...(depth === 16 ? [value, value] : [value]));
  }
  const header = new Uint8Array([...be32(width), ...be32(height), depth, 6, 0, 0, 0]);
  return new Uint8Array([
    ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
    ...chunk('IHDR', header),
    ...chunk('IDAT', await deflate(new Uint8Array(rows))),
    ...chunk('IEND', new Uint8Array()),
  ]);
}
