/**
 * When the bytes of one upload arrived, as the server read them: `[offsetMs, bytes]` points, `offsetMs` from the
 * handler's start and `bytes` counted up to then. A client that spreads an upload's bytes evenly over its request
 * cannot tell a loss stall from steady progress, nor the round trip its HTTP/1.1 connection idles between requests
 * from transfer time; the server's own arrival times can.
 * Points closer than `stepMs` are merged (the later one stands), so a 25 MB upload of a few seconds answers a few
 * hundred points rather than one per 64 KiB chunk; the client's goodput intervals are 250 ms or longer.
 * Pure: the caller supplies every timestamp.
 */
export class ReceiveTimeline {
  readonly #stepMs: number;
  readonly #points: [number, number][] = [[0, 0]];
  #bytes = 0;
  /** When the latest point was opened (ms): reads within `stepMs` of it are merged into it. */
  #openedAtMs = 0;

  /** @param stepMs the shortest gap between two kept points (ms) */
  constructor(stepMs = 5) {
    this.#stepMs = stepMs;
  }

  /** Records `chunkBytes` read at `offsetMs` (ms since the handler started, never decreasing). */
  add(offsetMs: number, chunkBytes: number): void {
    this.#bytes += chunkBytes;
    const last = this.#points[this.#points.length - 1] as [number, number];
    const at = Math.max(last[0], Math.round(offsetMs * 10) / 10);
    // Within `stepMs` of where the latest point opened, the latest point moves to this read; the first point
    // (0 ms, 0 bytes) always stays: it is where the request's body began.
    if (this.#points.length > 1 && at - this.#openedAtMs < this.#stepMs) {
      last[0] = at;
      last[1] = this.#bytes;
      return;
    }
    this.#points.push([at, this.#bytes]);
    this.#openedAtMs = at;
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** The points, oldest first, starting at [0, 0]. */
  points(): [number, number][] {
    return this.#points.map(([offsetMs, bytes]) => [offsetMs, bytes]);
  }
}
