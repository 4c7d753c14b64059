/** The media type of BinaryAST responses, and what a client lists in `Accept` to ask for one. */
export const binastMediaType = 'application/javascript-binast';

/**
 * True when an `Accept` header lists BinaryAST with a non-zero q-value. Never throws: a missing or malformed
 * header means "no" (plain JavaScript always works). A wildcard does not count: a client that has no decoder
 * sends `*\/*` too, and BinaryAST is useless to it.
 */
export function acceptsBinast(header: string | null | undefined): boolean {
  if (!header) return false;
  for (const range of header.split(',')) {
    const [type = '', ...params] = range.split(';').map((part) => part.trim());
    if (type.toLowerCase() !== binastMediaType) continue;
    const q = params.find((param) => /^q\s*=/i.test(param));
    if (q === undefined) return true;
    const value = Number(q.split('=')[1]);
    return Number.isFinite(value) && value > 0;
  }
  return false;
}
