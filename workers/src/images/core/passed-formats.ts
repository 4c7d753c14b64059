// Image formats browsers may show that the Wasm codecs cannot read: HEIC/HEIF (Safari) and JPEG XL (Safari 17+). The
// URL API serves such a source as it is, with its own type, rather than refusing it as "not an image": a page that
// sends every <img> through /cdn-cgi/image/ would show a broken image where the plain URL works. Recognised from
// their first bytes only, so nothing that is not one of them (a page, a script) is ever served this way. Pure.

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

/** The MIME types of the formats passed through. */
export type PassedImageType = 'image/heic' | 'image/heif' | 'image/jxl';

const jxlContainer = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a];
const heicBrands = new Set(['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx']);
const heifBrands = new Set(['mif1', 'msf1']);

/**
 * The MIME type of a HEIC, HEIF or JPEG XL file from its first bytes (at least 12; the `ftyp` box's brands when they
 * are there), or null for anything else. Never throws.
 */
export function passedImageType(head: Uint8Array): PassedImageType | null {
  if (head[0] === 0xff && head[1] === 0x0a) return 'image/jxl'; // a bare codestream
  if (head.length >= jxlContainer.length && jxlContainer.every((byte, i) => head[i] === byte)) return 'image/jxl';
  if (head.length < 16 || ascii(head, 4, 4) !== 'ftyp') return null;
  const boxBytes = ((head[0] ?? 0) << 24) | ((head[1] ?? 0) << 16) | ((head[2] ?? 0) << 8) | (head[3] ?? 0);
  const end = Math.min(head.length, boxBytes >>> 0);
  // Major brand at 8, minor version at 12, compatible brands from 16.
  const brands = [ascii(head, 8, 4)];
  for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(head, at, 4));
  if (brands.some((brand) => brand === 'avif' || brand === 'avis')) return null;
  if (brands.some((brand) => heicBrands.has(brand))) return 'image/heic';
  return brands.some((brand) => heifBrands.has(brand)) ? 'image/heif' : null;
}
