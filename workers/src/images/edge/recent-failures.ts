/**
 * Transforms that failed in this isolate lately, by what was attempted (a digest of a source's identity when its
 * decode failed, for negotiation; a variant key for the URL API): short keys, since an identity holds the URL (up to
 * 16 KB). A source whose decode fails (a corrupt body behind a valid header) fails the same way on every request:
 * without this each visitor of a page showing it paid another decode, up to the work budget, before getting the
 * original anyway. Kept in the isolate only, and for `retryAfterMs`: a failure may be passing (a trap under memory
 * pressure), and nothing is stored for other isolates on its strength.
 */
/** Longest reason kept (characters): a decoder's message may quote input; the note shows it in a header. */
export const maxReasonChars = 200;

export class RecentFailures {
  /** Each key's failure and when it happened (Date.now() ms), oldest first. */
  readonly #failures = new Map<string, { reason: string; atMs: number }>();

  constructor(
    readonly retryAfterMs: number,
    private readonly maxKeys: number,
  ) {}

  /** Notes that the work named by `key` failed, and why (the first `maxReasonChars` of it). */
  remember(key: string, reason: string, nowMs = Date.now()): void {
    this.#failures.delete(key);
    if (this.#failures.size >= this.maxKeys) {
      const oldest = this.#failures.keys().next().value;
      if (oldest !== undefined) this.#failures.delete(oldest);
    }
    this.#failures.set(key, { reason: reason.slice(0, maxReasonChars), atMs: nowMs });
  }

  /** Why the work named by `key` failed within the last `retryAfterMs`, or null (never, or long enough ago to retry). */
  recent(key: string, nowMs = Date.now()): string | null {
    const failure = this.#failures.get(key);
    if (!failure) return null;
    if (nowMs - failure.atMs >= this.retryAfterMs) {
      this.#failures.delete(key);
      return null;
    }
    return failure.reason;
  }

  /** Forgets every failure (tests). */
  clear(): void {
    this.#failures.clear();
  }
}

/** The images Worker's: ten minutes, a thousand keys (a key and a one-line reason each). */
export const recentFailures = new RecentFailures(10 * 60_000, 1000);

/** The note of an original served because the same transform failed lately. */
export const failedLatelyNote = (reason: string) =>
  `transform failed in the last ${recentFailures.retryAfterMs / 60_000} min (${reason}); not tried again yet`;
