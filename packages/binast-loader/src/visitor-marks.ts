// What a browser keeps between views of a site for the loader: the decoder's mark in localStorage (its files are in
// the HTTP cache) and the cookies the Worker reads (model.ts `linkCookie`, `decoderCookie`).

/** Whether the decoder at `decoderUrl` marked itself as started in an earlier view (false where storage is refused). */
export function decoderMarked(decoderUrl: string): boolean {
  try {
    return localStorage.binastDecoder === decoderUrl;
  } catch {
    return false;
  }
}

/** Marks the decoder at `decoderUrl` as started: its files are in the HTTP cache now. */
export function markDecoder(decoderUrl: string): void {
  try {
    localStorage.binastDecoder = decoderUrl;
  } catch {}
}

/** Sets a site-wide, first-party cookie for `maxAgeS` seconds. */
export function setSiteCookie(name: string, value: string | number, maxAgeS: number): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is missing in Firefox and older Safari
  document.cookie = `${name}=${value};path=/;max-age=${maxAgeS};samesite=lax`;
}
