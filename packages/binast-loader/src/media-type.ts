/** The media type a server answers with when it sends BinaryAST (and clients ask for in `Accept`). */
export const binastMediaType = 'application/javascript-binast';

/** `Accept` for script requests: BinaryAST preferred, anything else (JavaScript) acceptable. */
export const binastAccept = `${binastMediaType}, */*`;

/** True when a Content-Type header names BinaryAST; parameters and case are ignored, null or garbage is false. */
export function isBinastContentType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === binastMediaType;
}
