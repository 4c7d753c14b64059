import type { ImageLayout } from './layout';

/**
 * What was learnt about one representation: its layout, that it cannot be prioritised (so it is not re-read), or
 * that an urgent request's read ahead found no preview within its budget (`large-preview`: later urgent requests
 * send it whole without holding any byte back; a staged request still reads it, and stores the full layout).
 */
export type CachedLayout = ImageLayout | 'unusable' | 'large-preview';

/**
 * Offsets per URL + ETag, least recently used evicted first. It lives in the isolate, so repeat requests served by
 * the same isolate skip the parse and the buffering; an ETag change (new bytes) is a different key.
 */
export class LayoutCache {
  readonly #entries = new Map<string, CachedLayout>();

  constructor(private readonly maxEntries: number) {}

  /**
   * The key, or `undefined` when the response has no ETag (nothing proves the bytes are the same next time). Type
   * and length are part of it because a negotiating origin may send AVIF and JPEG under one URL with a lax ETag.
   */
  static key(url: string, headers: Headers): string | undefined {
    const etag = headers.get('etag');
    if (!etag) return undefined;
    return [url, etag, headers.get('content-type') ?? '', headers.get('content-length') ?? ''].join('\n');
  }

  get(key: string): CachedLayout | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: CachedLayout): void {
    if (this.maxEntries <= 0) return;
    this.#entries.delete(key);
    this.#entries.set(key, value);
    while (this.#entries.size > this.maxEntries) {
      const oldest = this.#entries.keys().next().value;
      if (oldest === undefined) break;
      this.#entries.delete(oldest);
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
