import { type ImageFormat, mimeTypes } from './formats';

/**
 * Image types an origin may send, with the non-standard names servers and upload tools still write (`image/jpg`,
 * old Internet Explorer's `image/pjpeg` and `image/x-png`, kept in S3 metadata for years): browsers show those
 * images, so they are negotiated too, and the bytes must still be of the named format. A Map: the Content-Type is
 * the origin's text, and an object literal would also answer `constructor` or `valueOf`.
 */
const formatOfMime: ReadonlyMap<string, ImageFormat> = new Map([
  ...Object.entries(mimeTypes).map(([format, mime]) => [mime, format as ImageFormat] as const),
  ['image/jpg', 'jpeg'],
  ['image/pjpeg', 'jpeg'],
  ['image/x-png', 'png'],
]);

/** Generic types object stores give a file nobody typed: S3's `binary/octet-stream` (old tools) and the standard one. */
const untyped = new Set(['application/octet-stream', 'binary/octet-stream']);

/** The format a file name's extension promises. */
const formatOfExtension: ReadonlyMap<string, ImageFormat> = new Map([
  ['jpg', 'jpeg'],
  ['jpeg', 'jpeg'],
  ['jfif', 'jpeg'],
  ['png', 'png'],
  ['webp', 'webp'],
]);

/**
 * `Sec-Fetch-Dest` values of requests that may be negotiated: `<img>`, CSS images and `image-set` (`image`),
 * `fetch()` and XHR (`empty`). Navigations, scripts, styles and fonts are not.
 */
const imageDestinations = new Set(['image', 'empty']);

/** An image (or unknown: no header, not a browser) destination: a request negotiation may answer with a variant. */
export const isImageDestination = (destination: string | null) =>
  destination === null || imageDestinations.has(destination.toLowerCase());

/**
 * The format a response claims to be, for negotiation: from its `Content-Type`, or, for an untyped object-store file
 * (`application/octet-stream`) whose URL ends in `.jpg`, `.png` or `.webp`, from that extension, when an `<img>`
 * (or CSS, or a script) asked for it. A navigation to such a file is a download and stays one. Either way the bytes
 * must then be of that format (`negotiateImage` checks) or the original is served.
 */
export function claimedFormat(
  contentType: string | null,
  pathname: string,
  fetchDestination: string | null,
): ImageFormat | undefined {
  const mime = contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
  const named = formatOfMime.get(mime);
  if (named || !untyped.has(mime)) return named;
  if (!isImageDestination(fetchDestination)) return undefined;
  const extension = /\.([a-z]+)$/i.exec(pathname)?.[1]?.toLowerCase() ?? '';
  return formatOfExtension.get(extension);
}
