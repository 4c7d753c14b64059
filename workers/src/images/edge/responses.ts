import { etagMatches } from '../../shared/conditional';
import { addVary } from '../../shared/vary';
import { variantDisposition } from '../core/disposition';
import { type ImageFormat, mimeTypes } from '../core/formats';
import { svgContentSecurityPolicy } from '../core/svg';

/**
 * A note as a header value: printable ASCII only (a header holds Latin-1 and setting anything else throws, which
 * would turn a served original into an error), at most 300 characters.
 */
const headerSafe = (note: string) => note.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);

/**
 * What a codec or the pipeline threw, readable in a note: Emscripten builds throw plain objects and numbers as well as
 * Errors (`String()` of those said "[object Object]").
 */
export function describeError(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  try {
    return `${typeof error} ${JSON.stringify(error)}`;
  } catch {
    return typeof error;
  }
}

/** Adds `Accept` to `Vary` (once), keeping what the origin already varies on. */
export const varyOnAccept = (headers: Headers): void => addVary(headers, 'Accept');

/** Response headers that describe the origin's bytes and must not be copied onto a re-encoded variant. */
const representationHeaders = [
  'content-type',
  'content-length',
  'etag',
  'content-encoding',
  'content-range',
  'content-disposition',
  'accept-ranges',
];

export interface VariantInfo {
  readonly bytes: Uint8Array;
  readonly format: ImageFormat;
  /** Unique per source version + options + format (the R2 key works), turned into the ETag. */
  readonly key: string;
  /** Why/how it was produced, for the `x-speedkit-image` debugging header. */
  readonly note: string;
  readonly vary: boolean;
}

/**
 * A variant with the origin's caching headers (Cache-Control, Expires, Last-Modified, CORS…), its own
 * Content-Type, Content-Length and a strong ETag, and `304` when the client already has it.
 */
export function variantResponse(request: Request, originHeaders: Headers, variant: VariantInfo): Response {
  const headers = new Headers(originHeaders);
  for (const name of representationHeaders) headers.delete(name);
  headers.set('content-type', mimeTypes[variant.format]);
  const disposition = variantDisposition(originHeaders.get('content-disposition'), variant.format);
  if (disposition) headers.set('content-disposition', disposition);
  headers.set('content-length', String(variant.bytes.byteLength));
  const etag = `"${variant.key
    .replace(/^images\/v1\//, '')
    .replace(/\.\w+$/, '')
    .slice(0, 32)}-${variant.format}"`;
  headers.set('etag', etag);
  headers.set('x-speedkit-image', headerSafe(variant.note));
  if (variant.vary) varyOnAccept(headers);
  if (etagMatches(request.headers.get('if-none-match'), etag)) {
    headers.delete('content-length');
    return new Response(null, { status: 304, headers });
  }
  return new Response(request.method === 'HEAD' ? null : variant.bytes, { status: 200, headers });
}

/** The origin's bytes as they were (already read), with `Vary: Accept` where negotiation applied and the reason. */
export function originalResponse(
  request: Request,
  origin: Response,
  bytes: Uint8Array | null,
  note: string,
  vary: boolean,
): Response {
  const headers = new Headers(origin.headers);
  headers.set('x-speedkit-image', headerSafe(`original; ${note}`));
  if (vary) varyOnAccept(headers);
  if (bytes) {
    // The runtime already undid any Content-Encoding while we read the body.
    headers.delete('content-encoding');
    headers.set('content-length', String(bytes.byteLength));
  }
  const body = request.method === 'HEAD' ? null : (bytes ?? origin.body);
  return new Response(body, { status: origin.status, statusText: origin.statusText, headers });
}

/** An SVG original as an image that never runs as a page (core/svg.ts): its own type, the CSP, `nosniff`. */
export function svgResponse(original: Response): Response {
  const headers = new Headers(original.headers);
  headers.set('content-type', 'image/svg+xml');
  headers.set('content-security-policy', svgContentSecurityPolicy);
  headers.set('x-content-type-options', 'nosniff');
  headers.delete('content-disposition');
  return new Response(original.body, { status: original.status, headers });
}
