/**
 * The browser's own view of how important a request is, from the RFC 9218 `Priority` request header that Chromium
 * sends over HTTP/2 and HTTP/3 (e.g. `u=2, i`: urgency 2, incremental). Chromium maps its request priority onto the
 * urgency: `fetchpriority=high` and preloaded images get 0–1, the first few sizeable images of a page 2 (Medium), the
 * rest 3 or lower (Low: the header then carries only `i`, and RFC 9218's default urgency 3 applies).
 */
export interface BrowserSignal {
  /** 0 (most urgent) .. 7, as the client sent it; 3 when the header is present without `u`. */
  urgency: number;
  incremental: boolean;
}

/** Longest header value read (characters): real ones are under 10; anything longer is not a signal worth parsing. */
const maxHeaderChars = 256;
/** RFC 9218's urgency when the header does not say. */
const defaultUrgency = 3;

/**
 * Parses `Priority` as an RFC 8941 dictionary far enough for `u` and `i`: members split on commas, parameters and
 * unknown keys ignored, a malformed `u` ignored (the RFC says to treat it as absent). Returns `undefined` when the
 * request has no usable header — no signal, which is not the same as "not urgent".
 */
export function browserSignal(headers: Headers): BrowserSignal | undefined {
  const raw = headers.get('priority');
  if (raw === null || raw.length > maxHeaderChars) return undefined;
  let urgency = defaultUrgency;
  let incremental = false;
  let understood = false;
  for (const member of raw.split(',')) {
    const [keyAndValue = ''] = member.split(';'); // parameters of a member carry nothing we use
    const equals = keyAndValue.indexOf('=');
    const key = (equals < 0 ? keyAndValue : keyAndValue.slice(0, equals)).trim();
    const value = equals < 0 ? '?1' : keyAndValue.slice(equals + 1).trim();
    if (key === 'u' && /^[0-7]$/.test(value)) {
      urgency = Number(value);
      understood = true;
    } else if (key === 'i' && (value === '?1' || value === '?0')) {
      incremental = value === '?1';
      understood = true;
    }
  }
  return understood ? { urgency, incremental } : undefined;
}
