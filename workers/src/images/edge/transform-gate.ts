// Wasm codecs run on the isolate's only thread: while one encodes, nothing else in the isolate (the speed test's
// /meta and /__down included) gets the CPU until the codec call returns. Running transforms one at a time, with
// yields between their stages (transform.ts), bounds how long any other request waits to one stage of one
// transform. Requests beyond that wait briefly in a bounded queue, then get a refusal their caller turns into the
// original image (negotiation) or 503 + Retry-After (/cdn-cgi/image/).

/** Returned by `acquire`: call it once the transform is done (in `finally`). */
export type Release = () => void;

export interface GateLimits {
  /** Transforms running at once in this isolate (`IMAGES_MAX_CONCURRENT_TRANSFORMS`). */
  readonly maxConcurrent: number;
  /** Transforms allowed to wait for a slot; more are refused at once. */
  readonly maxQueued: number;
}

interface Waiter {
  readonly grant: (release: Release) => void;
  readonly background: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/** A counting semaphore with a bounded, time-limited FIFO queue. */
export class TransformGate {
  #running = 0;
  readonly #queue: Waiter[] = [];

  constructor(private readonly limits: GateLimits) {}

  /** Transforms running now and waiting now (for logs, tests and the benchmark). */
  get load(): { readonly running: number; readonly queued: number } {
    return { running: this.#running, queued: this.#queue.length };
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
    if (waitMs <= 0 || this.#queue.length >= this.limits.maxQueued) return Promise.resolve(null);
    return new Promise((resolve) => {
      const waiter: Waiter = { grant: resolve, background, timer: undefined };
      waiter.timer = setTimeout(() => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        resolve(null);
      }, waitMs);
      // Foreground waiters queue ahead of every background one, FIFO among themselves.
      const firstBackground = this.#queue.findIndex((queued) => queued.background);
      if (background || firstBackground < 0) this.#queue.push(waiter);
      else this.#queue.splice(firstBackground, 0, waiter);
    });
  }

  #take(): Release {
    this.#running += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
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
