// The cost model: before asking for BinaryAST, is it going to be faster than the plain script? Pure (no DOM), so
// every rule is unit-tested; the loader feeds it what the page knows (see `readConnection` in loader.ts).

/** What the loader knows about one script and the page when it finds the script. */
export interface CostInput {
  /** Bytes on the wire of the script as JavaScript and as BinaryAST (the Worker's size hint), when hinted. */
  jsBytes?: number;
  binastBytes?: number;
  /** The decoder is in the browser's cache already (or on its way for an earlier script of this page). */
  decoderCached: boolean;
  /** Downlink estimate in Mbit/s and round trip in ms (Network Information, else what already loaded). */
  downMbit?: number;
  rttMs?: number;
}

/**
 * Why the loader went the way it did: `faster` (BinaryAST asked for: it saves more time than it costs), or the
 * plain script because `no-hint` (the Worker gave no sizes), `larger` (BinaryAST is not smaller on the wire),
 * `no-speed` (no estimate of the connection) or `slower` (the bytes saved take less time than decoding, plus the
 * decoder's download when it is not cached). `always`: the loader's `data-always` skipped the model.
 */
export type Choice = 'faster' | 'always' | 'no-hint' | 'larger' | 'no-speed' | 'slower';

export interface Decision {
  reason: Choice;
  /** Transfer time BinaryAST saves, ms (0 when not computed). */
  savedMs: number;
  /** Time BinaryAST adds: decoding and the lost off-thread compile, plus the decoder's download when cold, ms. */
  costMs: number;
}

/** The decoder on the wire: decode-only Wasm + glue (39.8 KB gzip) and its two small modules, bytes. */
export const decoderWireBytes = 42_000;
/** Sequential requests before the decoder can run: binast.js, its Worker, the glue, the Wasm. */
export const decoderRoundTrips = 4;
/**
 * BinaryAST wire bytes handled per ms, end to end: decoding in the Worker (≈ 15 MB/s of JavaScript in Chromium on
 * a loaded 2-core machine, one wire byte becoming ≈ 3.5 bytes of JavaScript: ≈ 4 KB/ms), handing the text to the
 * page and compiling it on the main thread, which a plain script does off the main thread while it downloads.
 * Taken 4× lower than the decode alone so the model errs towards the plain script.
 */
export const binastWireBytesPerMs = 1_000;

/** Decides whether asking for BinaryAST wins for one script; the numbers in the answer explain why. */
export function decide(input: CostInput): Decision {
  const { jsBytes = 0, binastBytes = 0, downMbit = 0, rttMs = 0 } = input;
  const none = (reason: Choice): Decision => ({ reason, savedMs: 0, costMs: 0 });
  if (!(jsBytes > 0 && binastBytes > 0)) return none('no-hint');
  if (binastBytes >= jsBytes) return none('larger');
  if (!(downMbit > 0)) return none('no-speed');
  // Mbit/s × 125 = bytes per ms.
  const bytesPerMs = downMbit * 125;
  const savedMs = (jsBytes - binastBytes) / bytesPerMs;
  const costMs =
    binastBytes / binastWireBytesPerMs +
    (input.decoderCached ? 0 : decoderWireBytes / bytesPerMs + decoderRoundTrips * rttMs);
  return { reason: savedMs > costMs ? 'faster' : 'slower', savedMs, costMs };
}
