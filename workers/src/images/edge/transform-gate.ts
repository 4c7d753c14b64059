// Wasm codecs run on the isolate's only thread: while one encodes, nothing else in the isolate (the speed test's
// /meta and /__down included) gets the CPU until the codec call returns. Running transforms one at a time, with
// yields between their stages (transform.ts), bounds how long any other request waits to one stage of one
// transform. Requests beyond that wait briefly in a bounded queue, then get a refusal their caller turns into the
// original image (negotiation) or 503 + Retry-After (/cdn-cgi/image/).
//
// A slot is a lease, not a token: when a client goes away, the runtime cancels its request, and code waiting in that
// request never runs again — neither the `finally` that releases its slot nor the waiter a slot was handed to. Without
// an expiry every such request would keep a slot for the isolate's life, and once all were kept every transform of
// every later visitor would be refused. A lease older than `leaseMs` (far beyond any transform's time budget) is
// taken back the next time a live request asks.

/** Returned by `acquire`: call it once the transform is done (in `finally`). */
export type Release = () => void;

export interface GateLimits {
  /** Transforms running at once in this isolate (`IMAGES_MAX_CONCURRENT_TRANSFORMS`). */
  readonly maxConcurrent: number;
  /** Transforms allowed to wait for a slot; more are refused at once. */
  readonly maxQueued: number;
}

interface Waiter {
  /** A slot, or null when the wait ran out or the place was given up to a visitor's request. */
  readonly grant: (release: Release | null) => void;
  readonly background: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** How long a slot may be held before it counts as abandoned: many times the longest transform's time budget. */
export const defaultLeaseMs = 60_000;

/** A counting semaphore of expiring leases with a bounded, time-limited FIFO queue. */
export class TransformGate {
  /** Each held slot's expiry (Date.now() ms). */
  readonly #leases = new Set<{ readonly expiresAtMs: number }>();
  readonly #queue: Waiter[] = [];

  constructor(
    private readonly limits: GateLimits,
    private readonly leaseMs = defaultLeaseMs,
  ) {}

  /** Transforms running now and waiting now (for logs, tests and the benchmark). */
  get load(): { readonly running: number; readonly queued: number } {
    return { running: this.#running, queued: this.#queue.length };
  }

  /** Slots held, after taking back those held past their lease. */
  get #running(): number {
    const nowMs = Date.now();
    for (const lease of this.#leases) if (lease.expiresAtMs <= nowMs) this.#leases.delete(lease);
    return this.#leases.size;
  }

  /**
   * A slot, or `null` when none frees up within `waitMs` (or the queue is full). Never throws.
   * @param waitMs how long the caller is willing to wait; 0 = only a free slot right now
   * @param background work nobody is waiting for (a background AVIF encode): every foreground waiter goes first
   */
  acquire(waitMs: number, background = false): Promise<Release | null> {
    const foregroundWaiting = this.#queue.some((waiter) => !waiter.background);
    if (this.#running < this.limits.maxConcurrent && !(background && foregroundWaiting))
      return Promise.resolve(this.#take());
    if (waitMs <= 0) return Promise.resolve(null);
    if (this.#queue.length >= this.limits.maxQueued && (background || !this.#dropLastBackground()))
      return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = { grant: resolve, background, timer: undefined };
      waiter.timer = setTimeout(() => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        // A lease may have run out meanwhile (its holder gone): then this waiter takes the slot after all.
        resolve(this.#running < this.limits.maxConcurrent ? this.#take() : null);
      }, waitMs);
      // Foreground waiters queue ahead of every background one, FIFO among themselves.
      const firstBackground = this.#queue.findIndex((queued) => queued.background);
      if (background || firstBackground < 0) this.#queue.push(waiter);
      else this.#queue.splice(firstBackground, 0, waiter);
    });
  }

  /**
   * Gives a full queue's last background place to a visitor's request: its encode is tried again on a later request.
   * Background encodes count toward `maxQueued` like any waiter, and until 2026-11-28 a cold page's background AVIF
   * jobs filled the queue and its later images were refused at once (23 of a 42-image page in Chromium went out as
   * "original; busy") while those jobs waited for slots they would only get after every visitor's request.
   */
  #dropLastBackground(): boolean {
    const index = this.#queue.findLastIndex((waiter) => waiter.background);
    if (index < 0) return false;
    const [dropped] = this.#queue.splice(index, 1);
    if (!dropped) return false;
    clearTimeout(dropped.timer);
    dropped.grant(null);
    return true;
  }

  #take(): Release {
    const lease = { expiresAtMs: Date.now() + this.leaseMs };
    this.#leases.add(lease);
    return () => {
      // Released twice, or after its lease ran out and was taken back: the slot is no longer this holder's.
      if (!this.#leases.delete(lease)) return;
      const next = this.#queue.shift();
      if (next) {
        clearTimeout(next.timer);
        next.grant(this.#take());
      }
    };
  }
}

let isolateGate: { gate: TransformGate; limits: GateLimits } | undefined;

/** The one gate of this isolate (rebuilt only if the configured limits change). */
export function transformGate(limits: GateLimits): TransformGate {
  if (isolateGate?.limits.maxConcurrent !== limits.maxConcurrent || isolateGate.limits.maxQueued !== limits.maxQueued) {
    isolateGate = { gate: new TransformGate(limits), limits };
  }
  return isolateGate.gate;
}
