// Which encoding a script's bytes are read in. The browser reads a plain `<script src>` by its response's
// Content-Type charset, else the element's `charset` attribute, else the page's encoding (a byte-order mark beats
// all three). Decoded BinaryAST is UTF-8 text. On a page in a legacy encoding (windows-1252, Shift_JIS), a `blob:`
// copy without a charset was read in the page's encoding, and inline text was always read as UTF-8: d3's "−" (U+2212)
// became "âˆ’" on a windows-1252 page (seen in Chromium), where the plain script, served as UTF-8, had it right.

/** The `charset` parameter of a MIME type (a Blob's `type`, a Content-Type), lower case, or undefined. */
export const charsetOf = (type: string): string | undefined =>
  /;\s*charset\s*=\s*["']?([^;"'\s]+)/i.exec(type)?.[1]?.toLowerCase();

/** The type of a `blob:` script holding `source`: JavaScript, in the charset `source` declares if it does. */
export const blobScriptType = (source: Blob): string => {
  const charset = charsetOf(source.type);
  return charset ? `text/javascript;charset=${charset}` : 'text/javascript';
};

/** The source as text, read as the browser would read the plain script's bytes for `element`. */
export async function scriptText(source: Blob, element: HTMLScriptElement): Promise<string> {
  const bytes = new Uint8Array(await source.arrayBuffer());
  const bom =
    bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf
      ? 'utf-8'
      : bytes[0] === 0xfe && bytes[1] === 0xff
        ? 'utf-16be'
        : bytes[0] === 0xff && bytes[1] === 0xfe
          ? 'utf-16le'
          : undefined;
  const label = bom ?? charsetOf(source.type) ?? (element.charset || document.characterSet);
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    // A label the browser does not know: it would go on to the next rule; UTF-8 is the one that remains likely.
    return new TextDecoder().decode(bytes);
  }
}
