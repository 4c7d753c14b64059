/**
 * SVG sources of `/cdn-cgi/image/`. Cloudflare serves them without resizing (a vector has no pixel size to change)
 * rather than failing, so a page whose every `<img>` goes through the URL API keeps its logos. Only a file that both
 * its origin and its bytes call SVG qualifies; anything else stays a 415.
 */

/** Bytes enough to pass an XML declaration, comments and a DOCTYPE before the root element. */
const sniffBytes = 4096;

/**
 * Served with the SVG: opened as a page (browsers run an SVG's scripts there, never in `<img>`), it runs no script
 * and loads nothing from anywhere (inline styles and `data:` images still paint). Cloudflare also sends a CSP for
 * SVGs, besides filtering them.
 */
export const svgContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

/**
 * True when the origin typed the body `image/svg+xml` and its root element is `<svg>`, after an optional BOM,
 * XML declaration, comments and a DOCTYPE. A DOCTYPE with an internal subset (`[`…`]`, where entities are
 * declared: the billion-laughs expansion) is refused.
 */
export function looksLikeSvg(bytes: Uint8Array, contentType: string | null): boolean {
  if (!/^\s*image\/svg\+xml\s*(;|$)/i.test(contentType ?? '')) return false;
  let text = new TextDecoder().decode(bytes.subarray(0, sniffBytes)).replace(/^\ufeff/, '');
  for (;;) {
    text = text.trimStart();
    const skip = prologEnd(text);
    if (skip === null) return /^<svg[\s/>]/.test(text);
    if (skip < 0) return false;
    text = text.slice(skip);
  }
}

/** Where the prolog item at the start of `text` ends; null when none starts there, -1 when it is cut or refused. */
function prologEnd(text: string): number | null {
  const closing = (open: string, close: string) => {
    if (!text.startsWith(open)) return null;
    const end = text.indexOf(close, open.length);
    return end < 0 ? -1 : end + close.length;
  };
  const item = closing('<?', '?>') ?? closing('<!--', '-->');
  if (item !== null) return item;
  if (!/^<!DOCTYPE\s/i.test(text)) return null;
  const end = text.indexOf('>');
  return end < 0 || text.slice(0, end).includes('[') ? -1 : end + 1;
}
