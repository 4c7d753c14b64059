import type { ImageFormat } from './formats';

/**
 * `Content-Disposition` on a negotiated image (RFC 6266). A download link's image (`attachment`) is a file the
 * visitor asked to keep: re-encoding it would hand them an AVIF in place of their JPEG, and dropping the header, as
 * variants used to, turned the download into a page showing the image. Only `inline` (or no header) is negotiated;
 * RFC 6266 §4.2 has recipients treat an unknown type as `attachment`, and Chromium does, so every other type is
 * passed through untouched too.
 */

/** The disposition type (`inline`, `attachment`, …) lowercased; '' when the header is absent or blank. */
const dispositionType = (value: string | null): string => (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

/** True when the response may be re-encoded: no `Content-Disposition`, or one whose type is `inline`. */
export function allowsVariant(value: string | null): boolean {
  if (value === null || value.trim() === '') return true;
  return dispositionType(value) === 'inline';
}

// One `; name=value` parameter: a token name, then a quoted string (backslash escapes) or a bare value up to `;`.
const parameter = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;]*)/g;

// An image file name's extension as the original's type would have it, at the end of the name.
const imageExtension = /\.(?:jpe?g|jpe|jfif|pjpeg|pjp|png|apng|webp|avif)$/i;

/** The extension a file of each format is saved with. */
const extensions: Readonly<Record<ImageFormat, string>> = {
  avif: 'avif',
  webp: 'webp',
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
};

/** `value`'s file name with its image extension (if any) made the format's, the quotes kept as they were. */
function renamed(name: string, value: string, format: ImageFormat): string {
  if (name !== 'filename' && name !== 'filename*') return value;
  const quoted = value.startsWith('"') && value.endsWith('"') && value.length >= 2;
  const inner = quoted ? value.slice(1, -1) : value.trim();
  const next = inner.replace(imageExtension, `.${extensions[format]}`);
  return quoted ? `"${next}"` : next;
}

/**
 * The header a variant carries for the original's `value`: `inline` with every file name's image extension changed
 * to the variant's format (so "Save image as" names an AVIF `.avif`), or null when the original had none or one
 * that is not `inline` (negotiation never re-encodes those; the URL API serves its output for display).
 */
export function variantDisposition(value: string | null, format: ImageFormat): string | null {
  if (value === null || dispositionType(value) !== 'inline') return null;
  const type = value.split(';')[0]?.trim() ?? 'inline';
  let rebuilt = type;
  for (const match of value.matchAll(parameter)) {
    const [, rawName = '', rawValue = ''] = match;
    rebuilt += `; ${rawName}=${renamed(rawName.toLowerCase(), rawValue.trim(), format)}`;
  }
  return rebuilt;
}
