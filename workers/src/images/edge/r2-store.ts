// Encoded variants in R2 (persisted locally by `wrangler dev`). A variant that came out no smaller than its source is
// stored as an empty marker, so the expensive encode is not retried on every request.

import { sha256Hex } from '../../shared/sha256';

/** A stored variant, or the marker saying the original is better. */
export type StoredVariant = { readonly kind: 'variant'; readonly bytes: Uint8Array } | { readonly kind: 'not-smaller' };

/**
 * A source version named by its URL, ETag and body length (bytes), before or after its body is read. The URL is part
 * of it because an ETag only tells versions of one resource apart: nginx's is the file's mtime (whole seconds) and
 * size, Express's its size and mtime, so two images of one deploy with the same byte length (flat icons, colour
 * swatches) can share one, and without the URL one image's variant was served for the other.
 */
export const etagIdentity = (url: string, etag: string, byteLength: number | null) =>
  `etag:${JSON.stringify([url, etag, byteLength])}`;

/**
 * Identifies a source version: its URL, ETag and length when the origin sends an ETag (so the key is known before
 * the body is read), otherwise a SHA-256 of the bytes (which names the content wherever it is served from). The
 * length is left out for a response that declared none (`lengthDeclared` false: a chunked body, or the static assets
 * binding, which sends no Content-Length), so the identity its headers give is the same before and after reading.
 */
export async function sourceIdentity(
  url: string,
  etag: string | null,
  bytes: Uint8Array,
  lengthDeclared = true,
): Promise<string> {
  if (etag) return etagIdentity(url, etag, lengthDeclared ? bytes.byteLength : null);
  return `sha256:${await sha256Hex(bytes)}`;
}

/** R2 key for one source version, canonical options and output format. */
export async function variantKey(sourceId: string, options: string, format: string): Promise<string> {
  const digest = await sha256Hex(`${sourceId}|${options}|${format}`);
  return `images/v1/${digest}.${format}`;
}

/** Reads a variant; a storage error counts as a miss (logged), never as a failed response. */
export async function getVariant(bucket: R2Bucket | undefined, key: string): Promise<StoredVariant | null> {
  if (!bucket) return null;
  try {
    const object = await bucket.get(key);
    if (!object) return null;
    if (object.customMetadata?.outcome === 'not-smaller') {
      await object.body.cancel();
      return { kind: 'not-smaller' };
    }
    return { kind: 'variant', bytes: new Uint8Array(await object.arrayBuffer()) };
  } catch (error) {
    console.warn(`images: R2 get ${key} failed, encoding instead: ${String(error)}`);
    return null;
  }
}

/** Stores a variant (or the not-smaller marker when `bytes` is null). Errors are logged: storage is only a cache. */
export async function putVariant(
  bucket: R2Bucket | undefined,
  key: string,
  bytes: Uint8Array | null,
  contentType: string,
): Promise<void> {
  if (!bucket) return;
  try {
    await bucket.put(key, bytes ?? new Uint8Array(), {
      httpMetadata: { contentType },
      customMetadata: { outcome: bytes ? 'smaller' : 'not-smaller' },
    });
  } catch (error) {
    console.warn(`images: R2 put ${key} failed: ${String(error)}`);
  }
}
