/** The media type a server answers with when it sends BinaryAST (and clients ask for in `Accept`). */
export const binastMediaType = 'application/javascript-binast';

/**
 * `Accept` for script requests: BinaryAST preferred, anything else (JavaScript) acceptable. Written out rather than
 * built from `binastMediaType`, which minifiers keep as a template (bytes in the loader's 2 KB); a test ties the two.
 */
export const binastAccept = 'application/javascript-binast, */*';

/** True when a Content-Type header names BinaryAST; parameters and case are ignored, null or garbage is false. */
export function isBinastContentType(contentType: string | null): boolean {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() === binastMediaType;
}
