// The BinaryAST request of one script, shared by the loader (which sends it early where it can) and the decoder
// module (which sends it otherwise).
import { binastAccept } from './media-type';

export interface BinastRequest {
  /** When the request was made (performance.now() ms), its cache check included. */
  startMs: number;
  /**
   * Whether the plain script is in the HTTP cache (a repeat view): running it costs neither a download nor a decode,
   * and asking for BinaryAST would download the script again (the cached copy answered another Accept), so nothing
   * is asked for then. False at once without the check. Never rejects.
   */
  cached: Promise<boolean>;
  /** The response to `Accept: application/javascript-binast, *\/*`; undefined when `cached`. */
  response: Promise<Response | undefined>;
}

/**
 * Asks for `url` as BinaryAST, after checking the HTTP cache for the plain script when `checkCache` is set. fetch's
 * default credentials (same-origin) match a plain script's for same-origin URLs and for crossorigin="anonymous"; see
 * the README for cross-origin scripts.
 */
export function requestBinast(url: string, checkCache: boolean): BinastRequest {
  const startMs = performance.now();
  const cached = checkCache ? inHttpCache(url) : Promise.resolve(false);
  const response = cached.then((hit) => (hit ? undefined : fetch(url, { headers: { accept: binastAccept } })));
  // Whoever takes the request handles its failure; one nobody takes (the decoder module failed to load) must not
  // be reported as unhandled.
  response.catch(() => {});
  return { startMs, cached, response };
}

/**
 * Whether the browser's HTTP cache holds a response for a plain request of `url` (a script element's `Accept: *\/*`),
 * fresh or not; `only-if-cached` answers from the cache or fails, never from the network. Same-origin only, as
 * `only-if-cached` requires: cross-origin scripts count as not cached.
 */
async function inHttpCache(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
    void response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
