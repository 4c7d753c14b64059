/**
 * Keys of work in progress or done lately in this isolate (a background encode per image variant, a script asked for
 * as BinaryAST), so a burst of requests starts the work once. A claim is forgotten after `staleMs`: the runtime may
 * cancel the request (or its `waitUntil`) that held it, and its `finally` never runs, which would otherwise keep the
 * key claimed, and the work never done, for the isolate's life. Claims that are never released stay until stale;
 * `maxKeys` bounds how many are remembered (the oldest claim is forgotten first).
 */
export class ExpiringClaims {
  /** Each claimed key and when it was claimed (Date.now() ms), oldest claim first. */
  readonly #claimedAtMs = new Map<string, number>();

  constructor(
    private readonly staleMs: number,
    private readonly maxKeys = Number.POSITIVE_INFINITY,
  ) {}

  /** Claims `key`: true when nobody holds it (or its holder's claim has gone stale). */
  claim(key: string, nowMs = Date.now()): boolean {
    const since = this.#claimedAtMs.get(key);
    if (since !== undefined && nowMs - since < this.staleMs) return false;
    // Re-inserted, so the map stays in claim order for the bound below.
    this.#claimedAtMs.delete(key);
    if (this.#claimedAtMs.size >= this.maxKeys) {
      const oldest = this.#claimedAtMs.keys().next().value;
      if (oldest !== undefined) this.#claimedAtMs.delete(oldest);
    }
    this.#claimedAtMs.set(key, nowMs);
    return true;
  }

  /** Ends the claim made at `claimedAtMs`; a newer claim of the same key (made after this one went stale) stays. */
  release(key: string, claimedAtMs: number): void {
    if (this.#claimedAtMs.get(key) === claimedAtMs) this.#claimedAtMs.delete(key);
  }
}
