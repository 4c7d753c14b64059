import { ascii as text, u32be as u32 } from './bytes';
import { type HeaderScan, unusable as invalid, needMore as more } from './scan';

// AVIF is an ISO-BMFF (HEIF) file: `ftyp`, then `meta` (item info, locations and properties such as `ispe`, the
// image spatial extents), then `mdat`. A decoder can lay the image out once `meta` has arrived, so that is the header.

const type = (b: Uint8Array, at: number) => text(b, at, 4);

export interface Box {
  type: string;
  start: number;
  /** First byte of the payload (after size, type and any 64-bit size). */
  body: number;
  end: number;
}

/** Reads the box header at `at`; `undefined` when its header is not complete in `b` yet. */
export function boxAt(b: Uint8Array, at: number, limit: number): Box | 'bad' | undefined {
  if (at + 8 > b.length) return undefined;
  let size = u32(b, at);
  let body = at + 8;
  if (size === 1) {
    if (at + 16 > b.length) return undefined;
    size = u32(b, at + 8) * 0x1_0000_0000 + u32(b, at + 12);
    body = at + 16;
  } else if (size === 0) {
    size = limit - at; // "extends to the end of the file": only meaningful for the last box
  }
  if (size < body - at || at + size > limit) return 'bad';
  return { type: type(b, at + 4), start: at, body, end: at + size };
}

/** Largest `ispe` under `iprp/ipco`: the primary image of a grid or an image with alpha is the largest one. */
function largestExtent(b: Uint8Array, from: number, to: number, depth: number): [number, number] | undefined {
  let best: [number, number] | undefined;
  for (let at = from; at < to; ) {
    const box = boxAt(b, at, to);
    if (box === undefined || box === 'bad') return best;
    let found: [number, number] | undefined;
    if (box.type === 'ispe' && box.body + 12 <= box.end) found = [u32(b, box.body + 4), u32(b, box.body + 8)];
    else if ((box.type === 'iprp' || box.type === 'ipco') && depth < 4) {
      found = largestExtent(b, box.body, box.end, depth + 1);
    }
    if (found && (!best || found[0] * found[1] > best[0] * best[1])) best = found;
    at = box.end;
  }
  return best;
}

/** What the AVIF reader reports besides the dimensions. */
export interface AvifBrands {
  /** The `ftyp` major brand: `avis` is an image sequence. */
  readonly majorBrand: string;
}

/**
 * AVIF: the header ends with the `meta` box. A streaming caller needs `meta` first (`mdat` before it means the file is
 * not header-first, so it is `invalid`); a caller holding the whole file passes `mdatFirst: 'skip'` to walk past it.
 * The dimensions are the largest `ispe` (a 1×1 thumbnail or alpha plane declared first must not hide a 100 MP primary
 * image from the limits).
 */
export function readAvifHeader(
  b: Uint8Array,
  { mdatFirst = 'invalid' }: { mdatFirst?: 'invalid' | 'skip' } = {},
): HeaderScan & { brands?: AvifBrands } {
  let majorBrand: string | undefined;
  for (let at = 0; ; ) {
    const box = boxAt(b, at, Number.MAX_SAFE_INTEGER);
    if (box === undefined) return more;
    if (box === 'bad') return invalid(`bad ISO-BMFF box size at byte ${at}`);
    if (majorBrand === undefined) {
      if (box.type !== 'ftyp') return invalid('ISO-BMFF file without ftyp first');
      if (box.end > b.length) return more;
      const brands = Array.from({ length: (box.end - box.body) / 4 }, (_, i) => type(b, box.body + 4 * i));
      if (!brands.some((brand) => brand === 'avif' || brand === 'avis')) return invalid('ftyp has no avif brand');
      majorBrand = brands[0] ?? '';
    } else if (box.type === 'mdat' && mdatFirst === 'invalid') {
      return invalid('AVIF with mdat before meta');
    } else if (box.type === 'meta') {
      if (box.end > b.length) return more;
      const extent = largestExtent(b, box.body + 4, box.end, 0); // meta is a FullBox: skip version and flags
      if (!extent || extent[0] < 1 || extent[1] < 1) return invalid('AVIF meta box without ispe');
      return {
        kind: 'done',
        header: { format: 'avif', width: extent[0], height: extent[1], headerEndBytes: box.end },
        brands: { majorBrand },
      };
    }
    at = box.end;
  }
}

/** One item property of an AVIF: its type and payload span in the file. */
export interface AvifProperty {
  readonly type: string;
  /** First byte of the payload. */
  readonly body: number;
  readonly end: number;
}

/**
 * The item properties of a whole AVIF (the boxes in `meta/iprp/ipco`), for readers that look for one (`colr`, `irot`,
 * …), within the first `limit` bytes; null past `maxBoxes` boxes walked (a file of thousands of boxes is an attack).
 * A box that does not fit ends its list.
 */
export function avifProperties(b: Uint8Array, limit: number, maxBoxes = 1024): AvifProperty[] | null {
  let walked = 0;
  const children = (from: number, to: number): Box[] | null => {
    const found: Box[] = [];
    for (let at = from; at < to; ) {
      if (++walked > maxBoxes) return null;
      const box = boxAt(b, at, to);
      if (box === undefined || box === 'bad') break;
      found.push(box);
      at = box.end;
    }
    return found;
  };
  const inside = (boxes: Box[] | null, name: string, skip = 0): Box[] | null => {
    if (!boxes) return null;
    const box = boxes.find((candidate) => candidate.type === name);
    return box ? children(box.body + skip, box.end) : [];
  };
  // `meta` is a full box: 4 bytes of version and flags before its children.
  return inside(inside(inside(children(0, Math.min(b.length, limit)), 'meta', 4), 'iprp'), 'ipco');
}
