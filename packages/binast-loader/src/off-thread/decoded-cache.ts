// Decoded source is kept in Cache Storage, keyed by the script URL and the BinaryAST response's ETag, so a repeat
// view (the BinaryAST then comes from the HTTP cache) reads the text back instead of decoding again. Where Cache
// Storage is missing (insecure origins) or fails, or the response has no ETag, every view decodes.
// The page reads (client.ts: `storedVersions`, `readDecoded`); the decoder's Worker writes (worker.ts:
// `keepDecoded`), once the page says the script ran, so the page's main thread never pays for the write: opening the
// cache, listing and deleting older versions and storing the new one took 1.5–1.9 ms of it per script (angular,
// 40 paired runs in Chromium, 2026-11-27), on top of what bench:binast's main-thread figure counted then.

const decodedCacheName = 'binast-decoded-v1';
/**
 * Most scripts with a stored copy, oldest dropped first: on a site whose script URLs change with every deploy
 * (content hashes in file names) each deploy would otherwise add one more copy for good.
 */
const maxCopies = 50;

/** Where a decoded copy of `url` at BinaryAST ETag `etag` is stored. */
const decodedKey = (url: string, etag: string) => {
  const key = new URL(url);
  key.searchParams.set('binast-etag', etag);
  return key.href;
};

/**
 * The BinaryAST ETags of the decoded copies of this script that Cache Storage holds (none, or one; any query),
 * empty when it fails. Asked once, while the BinaryAST downloads: `readDecoded` then needs no second look when the
 * response's ETag is not among them (a new deploy). Never rejects.
 */
export async function storedVersions(url: string): Promise<string[]> {
  try {
    const keys = await (await caches.open(decodedCacheName)).keys(url, { ignoreSearch: true });
    return keys.map((request) => new URL(request.url).searchParams.get('binast-etag') ?? '');
  } catch {
    return [];
  }
}

/**
 * The decoded copy of `url` for the BinaryAST `response` (matched by its ETag), cancelling the response's body when
 * there is one; undefined when `stored` (`storedVersions`) does not list its ETag, none is stored or Cache Storage
 * fails. Never rejects.
 */
export async function readDecoded(url: string, response: Response, stored: string[]): Promise<Blob | undefined> {
  const etag = response.headers.get('etag');
  if (!etag || !stored.includes(etag)) return undefined;
  try {
    const hit = await (await caches.open(decodedCacheName)).match(decodedKey(url, etag));
    if (!hit) return undefined;
    const source = await hit.blob();
    // The BinaryAST body is not needed any more.
    await response.body?.cancel();
    return source;
  } catch {
    return undefined;
  }
}

/**
 * Stores `source` as the decoded copy of `url` at BinaryAST ETag `etag`, replacing older versions, and drops the
 * oldest copies beyond `maxCopies`. Never rejects.
 */
export async function keepDecoded(url: string, etag: string, source: Blob): Promise<void> {
  try {
    const cache = await caches.open(decodedCacheName);
    // One entry per script: older versions (other ETags) go.
    for (const old of await cache.keys(url, { ignoreSearch: true })) await cache.delete(old);
    await cache.put(decodedKey(url, etag), new Response(source, { headers: { 'content-type': 'text/javascript' } }));
    // Cache Storage lists requests in the order they were stored.
    for (const old of (await cache.keys()).slice(0, -maxCopies)) await cache.delete(old);
  } catch {
    // A cache is an optimisation: the next view decodes again.
  }
}

/** What the decoder needs to keep a decoded copy: the script's URL and its BinaryAST response's ETag. */
export interface KeepAs {
  url: string;
  etag: string;
}
