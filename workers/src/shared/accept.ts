/** One media range of an `Accept` header, lower-cased, with its quality weight (0 = refused). */
export interface MediaRange {
  readonly type: string;
  readonly subtype: string;
  readonly q: number;
}

const token = /^[a-z0-9!#$&^_.+-]+$/;
/** Browsers send under 200 characters and 10 ranges; anything past these bounds is ignored, not parsed. */
export const maxAcceptChars = 4096;
export const maxAcceptRanges = 64;
const qValue = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * Parses an `Accept` header into media ranges. Never throws: a missing or empty header gives `[]`, and a range that
 * is malformed (no slash, bad characters, a q-value outside RFC 9110's `0.000`–`1.000`) is dropped on its own, so
 * garbage can never make a client look more capable than it said. A bare `*` (sent by some old clients) means `*\/*`.
 * Only the first `maxAcceptRanges` ranges of the first `maxAcceptChars` characters are read.
 */
export function parseAccept(header: string | null | undefined): MediaRange[] {
  if (!header) return [];
  const ranges: MediaRange[] = [];
  for (const part of header.slice(0, maxAcceptChars).split(',', maxAcceptRanges)) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim());
    const lower = range.toLowerCase();
    const [type, subtype, extra] = lower === '*' ? ['*', '*'] : lower.split('/');
    const valid = (piece: string) => piece === '*' || token.test(piece);
    if (!type || !subtype || extra !== undefined || !valid(type) || !valid(subtype)) continue;
    if (type === '*' && subtype !== '*') continue;
    let q = 1;
    let wellFormed = true;
    for (const param of params) {
      const [name, value] = param.split('=').map((piece) => piece.trim());
      if (name?.toLowerCase() !== 'q') continue;
      if (value === undefined || !qValue.test(value)) wellFormed = false;
      else q = Number(value);
    }
    if (wellFormed) ranges.push({ type, subtype, q });
  }
  return ranges;
}

/**
 * The weight a client gives to exactly `mime`, counting only ranges that name it (not `image/*` or `*\/*`): a
 * browser that sends `image/*` may still be unable to decode AVIF (Safari 13 sent `image/*` without WebP support),
 * so wildcards never opt a client into a new format. Duplicates: the lowest weight wins, so a refusal sticks.
 * @returns the q-value, or 0 when the type is not listed or refused
 */
export function explicitQuality(ranges: readonly MediaRange[], mime: string): number {
  const [type, subtype] = mime.toLowerCase().split('/');
  let quality: number | undefined;
  for (const range of ranges) {
    if (range.type !== type || range.subtype !== subtype) continue;
    quality = quality === undefined ? range.q : Math.min(quality, range.q);
  }
  return quality ?? 0;
}

/**
 * The adapter for a yes/no decision: true when `header` names `mime` itself with a non-zero q-value. Never throws; a
 * missing or malformed header means "no", and a wildcard never counts (see `explicitQuality`).
 */
export function acceptsExplicitly(header: string | null | undefined, mime: string): boolean {
  return explicitQuality(parseAccept(header), mime) > 0;
}
