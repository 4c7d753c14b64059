import type { SourceCheck } from '../core/source-checks';
import { etagIdentity } from './r2-store';

/** What `checkSource` decided about a source that may be converted. */
export type CheckedOk = Extract<SourceCheck, { ok: true }>;

/**
 * A source's checks as remembered: with whether its variants carry its ICC profile (a flag, not the profile: the
 * stored variants already hold it, and a thousand profiles of up to 256 KB would not fit an isolate).
 */
export type KnownSource = CheckedOk & { readonly keepsProfile: boolean };

/** Source checks remembered per isolate; an entry is one image header and a scan count (a few hundred bytes). */
const maxEntries = 1000;
/**
 * Longest identity remembered (characters): an identity holds the URL, and URLs may be up to 16 KB, so a thousand
 * entries of one image under ever-new query strings could hold 16 MB of an isolate's 128 MB. Real image URLs are far
 * shorter; a longer one is simply read and checked again each time.
 */
const maxIdentityChars = 2048;
const checks = new Map<string, KnownSource>();

/**
 * A source's identity from its URL and the origin's headers alone (URL, ETag, Content-Length when there is one), the
 * identity `sourceIdentity` gives the same response once its body is read, so both name the same stored variants.
 * Null without an ETag, or with a Content-Length that is not a plain decimal.
 */
export function headerIdentity(url: string, headers: Headers): string | null {
  const etag = headers.get('etag');
  const length = headers.get('content-length')?.trim() ?? null;
  if (!etag || (length !== null && !/^\d{1,15}$/.test(length))) return null;
  return etagIdentity(url, etag, length === null ? null : Number(length));
}

/** Remembers a source's checks under its identity (least recently used dropped beyond `maxEntries`). */
export function rememberCheck(identity: string, checked: KnownSource): void {
  if (identity.length > maxIdentityChars) return;
  checks.delete(identity);
  checks.set(identity, checked);
  if (checks.size > maxEntries) {
    const oldest = checks.keys().next().value;
    if (oldest !== undefined) checks.delete(oldest);
  }
}

/** The checks of a source this isolate has read before, if any. */
export function knownCheck(identity: string): KnownSource | undefined {
  const checked = checks.get(identity);
  if (checked) rememberCheck(identity, checked);
  return checked;
}
