/**
 * Aggregate goodput of all parallel streams in fixed intervals. Bytes arrive as spans (a body chunk read between
 * two instants, or a whole upload between its first byte sent and its last byte received) and are spread evenly
 * over the intervals a span overlaps. Pure: the caller supplies every timestamp.
 */
export class GoodputMeter {
  readonly #originMs: number;
  readonly #intervalMs: number;
  readonly #bytesByInterval: number[] = [];
  readonly #endsByInterval: number[] = [];
  #totalBytes = 0;
  #lastEndMs = Number.NEGATIVE_INFINITY;

  /**
   * @param originMs when interval 0 starts (performance.now() scale)
   * @param intervalMs length of one interval
   */
  constructor(originMs: number, intervalMs: number) {
    this.#originMs = originMs;
    this.#intervalMs = intervalMs;
  }

  get totalBytes(): number {
    return this.#totalBytes;
  }

  /** End of the latest span added: intervals after it only hold the idle tail of a finished phase. */
  get lastEndMs(): number {
    return this.#lastEndMs;
  }

  /** Index of the interval containing `timeMs` (negative times fall in interval 0). */
  intervalAt(timeMs: number): number {
    return Math.max(0, Math.floor((timeMs - this.#originMs) / this.#intervalMs));
  }

  /** Adds `bytes` spread uniformly over [startMs, endMs]; a zero-length span lands in the interval of `endMs`. */
  addSpan(startMs: number, endMs: number, bytes: number): void {
    if (!(bytes > 0)) return;
    this.#totalBytes += bytes;
    this.#lastEndMs = Math.max(this.#lastEndMs, endMs);
    const endIndex = this.intervalAt(endMs);
    this.#endsByInterval[endIndex] = (this.#endsByInterval[endIndex] ?? 0) + 1;
    const spanMs = endMs - startMs;
    if (!(spanMs > 0)) {
      this.#add(this.intervalAt(endMs), bytes);
      return;
    }
    for (let index = this.intervalAt(startMs); index <= this.intervalAt(endMs); index++) {
      const intervalStart = this.#originMs + index * this.#intervalMs;
      const overlapMs =
        Math.min(endMs, intervalStart + this.#intervalMs) - Math.max(startMs, intervalStart, this.#originMs);
      if (overlapMs > 0) this.#add(index, (bytes * overlapMs) / spanMs);
    }
  }

  /**
   * Bits per second of every interval that ended before `settledMs`: the instant before which no more bytes can be
   * added (now for downloads; the start of the oldest unfinished upload for uploads).
   */
  closedIntervals(settledMs: number): number[] {
    const closedCount = Math.max(0, Math.floor((settledMs - this.#originMs) / this.#intervalMs));
    const rates: number[] = [];
    for (let index = 0; index < closedCount; index++) {
      rates.push(((this.#bytesByInterval[index] ?? 0) * 8 * 1000) / this.#intervalMs);
    }
    return rates;
  }

  /**
   * How many spans ended in each closed interval: evidence that transfers progressed there. A stalled upload spread
   * over its whole duration gives flat, "stable" intervals with no span ending in them.
   */
  closedSpanEnds(settledMs: number): number[] {
    const closedCount = Math.max(0, Math.floor((settledMs - this.#originMs) / this.#intervalMs));
    return Array.from({ length: closedCount }, (_, index) => this.#endsByInterval[index] ?? 0);
  }

  #add(index: number, bytes: number): void {
    this.#bytesByInterval[index] = (this.#bytesByInterval[index] ?? 0) + bytes;
  }
}
