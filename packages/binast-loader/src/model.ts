// The cost model: before asking for BinaryAST, is it going to be faster than the plain script? Pure (no DOM), so
// every rule is unit-tested; the loader feeds it what the page knows (see `readConnection` in loader.ts).

/** What the loader knows about one script and the page when it finds the script. */
export interface CostInput {
  /** Bytes on the wire of the script as JavaScript and as BinaryAST (the Worker's size hint), when hinted. */
  jsBytes?: number;
  binastBytes?: number;
  /** The decoder is in the browser's cache already (or on its way for an earlier script of this page). */
  decoderCached: boolean;
  /** The page preloads the JavaScript (the Worker does where BinaryAST cannot win on a usual link): it is in flight. */
  preloaded?: boolean;
  /** Downlink estimate in Mbit/s and round trip in ms (Network Information, else what already loaded). */
  downMbit?: number;
  rttMs?: number;
}

/**
 * Why the loader went the way it did: `faster` (BinaryAST asked for: it saves more time than it costs), or the
 * plain script because `no-hint` (the Worker gave no sizes), `larger` (BinaryAST is not smaller on the wire),
 * `no-speed` (no estimate of the connection) or `slower` (the bytes saved take less time than decoding, plus the
 * decoder's download when it is not cached), or `preloaded` (the JavaScript is already on its way: asking for
 * BinaryAST too would download the script twice). `always`: the loader's `data-always` skipped the model.
 */
export type Choice = 'faster' | 'always' | 'no-hint' | 'larger' | 'no-speed' | 'slower' | 'preloaded';

export interface Decision {
  reason: Choice;
  /** Transfer time BinaryAST saves, ms (0 when not computed). */
  savedMs: number;
  /** Time BinaryAST adds: decoding and the lost off-thread compile, plus the decoder's download when cold, ms. */
  costMs: number;
}

/** The decoder on the wire: decode-only Wasm + glue (45.2 KB gzip, context layout format 4) and its two small modules, bytes. */
export const decoderWireBytes = 47_350;
/** Sequential requests before the decoder can run: binast.js, its Worker, the glue, the Wasm. */
export const decoderRoundTrips = 4;
/**
 * BinaryAST wire bytes handled per ms, end to end: decoding in the Worker, handing the text to the page and
 * compiling it on the main thread, which a plain script does off the main thread while it downloads. The context
 * layout (format 4) decodes ≈ 660 wire bytes per ms in a Chromium Web Worker (median of the bench corpus: 669 in
 * `npm run bench:binast` 2026-11-25 20:01 UTC, load 3.6–5.0, and 645 in an interleaved A/B at load 5–9, where
 * format 3's decoder gave 315: 2.0× faster, but the machine was slower than for format 3's 665 on 2026-11-24);
 * taken 4× lower, as before, so the model errs towards the plain script. Re-measure when the decoder changes.
 */
export const binastWireBytesPerMs = 165;

/** Decides whether asking for BinaryAST wins for one script; the numbers in the answer explain why. */
export function decide(input: CostInput): Decision {
  const { jsBytes = 0, binastBytes = 0, downMbit = 0, rttMs = 0 } = input;
  const none = (reason: Choice): Decision => ({ reason, savedMs: 0, costMs: 0 });
  if (!(jsBytes > 0 && binastBytes > 0)) return none('no-hint');
  if (binastBytes >= jsBytes) return none('larger');
  if (input.preloaded) return none('preloaded');
  if (!(downMbit > 0)) return none('no-speed');
  // Mbit/s × 125 = bytes per ms.
  const bytesPerMs = downMbit * 125;
  const savedMs = (jsBytes - binastBytes) / bytesPerMs;
  const costMs =
    binastBytes / binastWireBytesPerMs +
    (input.decoderCached ? 0 : decoderWireBytes / bytesPerMs + decoderRoundTrips * rttMs);
  return { reason: savedMs > costMs ? 'faster' : 'slower', savedMs, costMs };
}

/**
 * The slowest link the Worker expects BinaryAST to have to beat (the project's mobile profile). Where BinaryAST loses
 * even there with the decoder cached, the Worker preloads the JavaScript so the plain script starts with the HTML.
 */
export const preloadBelowMbit = 1.6;

/** Whether a script with these wire sizes can win on a link of `preloadBelowMbit` or faster (the Worker's preload rule). */
export const mayWin = (jsBytes: number, binastBytes: number) =>
  decide({ jsBytes, binastBytes, decoderCached: true, downMbit: preloadBelowMbit }).reason === 'faster';
