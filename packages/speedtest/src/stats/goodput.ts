/** Bins per interval: an upload's idle gaps (about one round trip) are resolved to 1/50 of an interval. */
const binsPerInterval = 50;

/**
 * Aggregate goodput of all parallel streams in fixed intervals. Bytes arrive as spans (a body chunk read between
 * two instants, or a stretch of an upload as the server read it) and are spread evenly over the time a span covers.
 * Idle gaps (`addGap`: a stream between two HTTP/1.1 uploads, its last byte read and the next request's first not
 * yet arrived) are left out of both the bytes and the time of an interval: goodput is then what the link carried
 * while every stream was sending, as a stream that never pauses (iperf3's) measures it; the other streams do not
 * fill a one-round-trip pause at once (each paces at its own share). Pure: the caller supplies every timestamp.
 */
export class GoodputMeter {
  readonly #originMs: number;
  readonly #intervalMs: number;
  readonly #binMs: number;
  readonly #bytesByBin: number[] = [];
  /** Share (0–1) of each bin inside an idle gap. */
  readonly #gapByBin: number[] = [];
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
    this.#binMs = intervalMs / binsPerInterval;
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
    this.#countEnd(endMs);
    this.#spread(startMs, endMs, bytes);
  }

  /**
   * Adds the consecutive stretches of one transfer (an upload as the server read it), each spread over its own
   * span; the transfer ends once, at its last stretch.
   */
  addSpans(spans: readonly { startMs: number; endMs: number; bytes: number }[]): void {
    const counted = spans.filter((span) => span.bytes > 0);
    const last = counted.at(-1);
    if (!last) return;
    this.#countEnd(last.endMs);
    for (const span of counted) this.#spread(span.startMs, span.endMs, span.bytes);
  }

  /** Marks [startMs, endMs] as a time when at least one stream was idle; overlapping gaps count once. */
  addGap(startMs: number, endMs: number): void {
    if (!(endMs > startMs)) return;
    this.#overBins(startMs, endMs, (bin, overlapMs) => {
      this.#gapByBin[bin] = Math.min(1, Math.max(this.#gapByBin[bin] ?? 0, overlapMs / this.#binMs));
    });
  }

  #countEnd(endMs: number): void {
    const endIndex = this.intervalAt(endMs);
    this.#endsByInterval[endIndex] = (this.#endsByInterval[endIndex] ?? 0) + 1;
  }

  #spread(startMs: number, endMs: number, bytes: number): void {
    this.#totalBytes += bytes;
    this.#lastEndMs = Math.max(this.#lastEndMs, endMs);
    const spanMs = endMs - startMs;
    if (!(spanMs > 0)) {
      const bin = this.#binAt(endMs);
      this.#bytesByBin[bin] = (this.#bytesByBin[bin] ?? 0) + bytes;
      return;
    }
    this.#overBins(startMs, endMs, (bin, overlapMs) => {
      this.#bytesByBin[bin] = (this.#bytesByBin[bin] ?? 0) + (bytes * overlapMs) / spanMs;
    });
  }

  #binAt(timeMs: number): number {
    return Math.max(0, Math.floor((timeMs - this.#originMs) / this.#binMs));
  }

  /** Calls `visit(bin, overlapMs)` for every bin [startMs, endMs] overlaps (time before the origin is dropped). */
  #overBins(startMs: number, endMs: number, visit: (bin: number, overlapMs: number) => void): void {
    for (let bin = this.#binAt(startMs); bin <= this.#binAt(endMs); bin++) {
      const binStart = this.#originMs + bin * this.#binMs;
      const overlapMs = Math.min(endMs, binStart + this.#binMs) - Math.max(startMs, binStart, this.#originMs);
      if (overlapMs > 0) visit(bin, overlapMs);
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
      let bytes = 0;
      let busyMs = 0;
      for (let bin = index * binsPerInterval; bin < (index + 1) * binsPerInterval; bin++) {
        const busy = 1 - (this.#gapByBin[bin] ?? 0);
        bytes += (this.#bytesByBin[bin] ?? 0) * busy;
        busyMs += this.#binMs * busy;
      }
      // An interval that was all gap has no time to measure over; its bytes over the whole interval stand (none
      // when every stream was idle).
      const allIdle = busyMs < this.#binMs;
      const intervalBytes = allIdle ? this.#bytesIn(index) : bytes;
      rates.push((intervalBytes * 8 * 1000) / (allIdle ? this.#intervalMs : busyMs));
    }
    return rates;
  }

  /**
   * Time (ms) of every interval that ended before `settledMs` during which every stream was sending: the interval's
   * length less its idle gaps. A figure over several intervals weighs each by it, so it is the bytes over the time
   * they were measured in: an interval mostly in gaps holds a few ms of sending, and a burst a loss released then
   * divided by those ms alone (5.9 Mbit/s on a 1 Mbit/s link) must not count like a whole interval.
   * An interval that was all gap weighs nothing: its rate (the fallback of `closedIntervals`) is what some streams
   * carried while another waited, e.g. for a retransmission timeout. Weighed as a whole interval, a stall of one of
   * two upload streams on 100/100 Mbit/s, 80 ms, 0.5 % loss put 1.2 s of the other stream alone (16–75 Mbit/s) into
   * the figure.
   */
  closedBusyMs(settledMs: number): number[] {
    const closedCount = Math.max(0, Math.floor((settledMs - this.#originMs) / this.#intervalMs));
    return Array.from({ length: closedCount }, (_, index) => {
      let busyMs = 0;
      for (let bin = index * binsPerInterval; bin < (index + 1) * binsPerInterval; bin++) {
        busyMs += this.#binMs * (1 - (this.#gapByBin[bin] ?? 0));
      }
      return busyMs < this.#binMs ? 0 : busyMs;
    });
  }

  #bytesIn(index: number): number {
    let bytes = 0;
    for (let bin = index * binsPerInterval; bin < (index + 1) * binsPerInterval; bin++)
      bytes += this.#bytesByBin[bin] ?? 0;
    return bytes;
  }

  /**
   * How many spans ended in each closed interval: evidence that transfers progressed there. A stalled upload spread
   * over its whole duration gives flat, "stable" intervals with no span ending in them.
   */
  closedSpanEnds(settledMs: number): number[] {
    const closedCount = Math.max(0, Math.floor((settledMs - this.#originMs) / this.#intervalMs));
    return Array.from({ length: closedCount }, (_, index) => this.#endsByInterval[index] ?? 0);
  }
}
