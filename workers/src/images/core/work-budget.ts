// The work a transform will cost, estimated from the header before any decode, so a request that would hold the
// isolate's thread for seconds is refused up front instead of discovered afterwards. Costs are milliseconds per
// megapixel on the project's 2-core machine under its usual shared load (load average ~11 when measured: about 3x
// an idle core), measured with the Worker's own codecs by `npm run bench:images` (bench/images/cost.mjs, results in
// bench/results/images-cost.{csv,json}). They rank requests against a budget; they are not a promise of wall time.
import type { ImageFormat, TargetFormat } from './formats';

/** Decode cost per megapixel of input. A progressive JPEG adds `perScan` for every scan (each re-walks the frame). */
const decodeMsPerMegapixel: Readonly<Record<ImageFormat, number>> = {
  jpeg: 24,
  png: 290,
  webp: 100,
  avif: 1250,
  gif: 0, // never decoded: GIFs are passed through
};
/** Measured: sharp's 10-scan progressive JPEG decoded in 144 ms/MP against 24 for baseline. */
const jpegMsPerScanMegapixel = 12;

/** Lanczos3 resize in linear light, per megapixel of input plus output. */
const resizeMsPerMegapixel = 290;

/** Codec options a rung of the ladder sets; what is not set keeps codecs.ts's full-effort default. */
export interface EncoderSetting {
  /** libwebp `method`, 0 (fastest) … 6 (smallest). */
  readonly webpMethod?: number;
  /** libavif `speed`, 0 (slowest) … 10 (fastest). */
  readonly avifSpeed?: number;
  /** WebP lossless (VP8L) instead of lossy: exact pixels, `webpMethod` sets the effort. */
  readonly webpLossless?: boolean;
}

/** One encoder setting of a format with its measured cost. */
export interface EncoderRung {
  /** Short name for variant keys and the `x-speedkit-image` note, e.g. `m4` (libwebp method 4), `s10`. */
  readonly id: string;
  readonly setting: EncoderSetting;
  readonly encodeMsPerMegapixel: number;
}

/**
 * Encoder settings per target format, full effort (smallest bytes at the asked quality) first, each later rung
 * cheaper. When the full-effort estimate is over `IMAGES_MAX_WORK_MS`, the planner walks down to the first rung that
 * fits: a faster setting of the same encoder at the same quality costs some bytes but keeps the conversion, where
 * dropping the format would serve the (larger) original. Only rungs whose bytes and SSIM stayed close to full
 * effort are listed (measured below), so every rung is an adequate answer.
 *
 * Full-effort figures (the first rung of each format) are the load-~11 calibration above. A faster rung is the
 * full-effort figure times its cost ratio to full effort, so every rung sits on that same scale. The ratios come from
 * bench/images/cost.mjs ("encoder settings"; run B is bench/results/images-cost-ladder.csv, while images-cost.csv
 * keeps the load-~11 calibration run), two runs on 2026-11-24: A at load 5.3–6.5 (settings timed one after another),
 * B at load 9–10.7 (settings interleaved over 7 rounds, the median of per-round ratios; the bench does this now). Each rung takes the larger ratio of the two (a budget must not
 * underestimate). Quality 85, 1 MP photo timed; bytes and SSIM on the 1600x1395 demo hero:
 *
 *   setting           ratio A / B   hero bytes   hero SSIM
 *   libwebp method 4  1.00          284 KB       0.9576
 *   libwebp method 3  0.90 / 1.04   283 KB       0.9572   not a rung: saves nothing reliable
 *   libwebp method 2  0.47 / 0.52   291 KB       0.9545   rung: 575 x 0.52 = 300 ms/MP
 *   libwebp method 1  0.41 / 0.39   290 KB       0.9530   not a rung: no cheaper than 0 in A
 *   libwebp method 0  0.37 / 0.32   292 KB       0.9530   rung: 575 x 0.37 = 213 ms/MP
 *   libavif speed 8   1.00          140 KB       0.9336
 *   libavif speed 9   0.53 / 0.66   150 KB       0.9352   same bytes as speed 10, not cheaper
 *   libavif speed 10  0.53 / 0.61   150 KB       0.9352   rung: 1000 x 0.61 = 610 ms/MP
 *   (libavif speed 7: 2.0 / 2.6x, speed 6: 4.4 / 4.6x the cost of 8)
 *
 * So a reduced rung costs 2–7 % more bytes at an SSIM within 0.005 of full effort: still far smaller than the JPEG it
 * replaces.
 */
export const encoderLadders: Readonly<Record<TargetFormat, readonly EncoderRung[]>> = {
  avif: [
    { id: 's8', setting: { avifSpeed: 8 }, encodeMsPerMegapixel: 1000 },
    { id: 's10', setting: { avifSpeed: 10 }, encodeMsPerMegapixel: 610 },
  ],
  webp: [
    { id: 'm4', setting: { webpMethod: 4 }, encodeMsPerMegapixel: 575 },
    { id: 'm2', setting: { webpMethod: 2 }, encodeMsPerMegapixel: 300 },
    { id: 'm0', setting: { webpMethod: 0 }, encodeMsPerMegapixel: 213 },
  ],
  // One setting each: no faster MozJPEG or PNG settings were measured, so these formats are in or out as before.
  jpeg: [{ id: 'mozjpeg', setting: {}, encodeMsPerMegapixel: 775 }],
  'baseline-jpeg': [{ id: 'baseline', setting: {}, encodeMsPerMegapixel: 610 }],
  png: [{ id: 'png', setting: {}, encodeMsPerMegapixel: 125 }],
};

/**
 * Lossless WebP for graphics (core/lossless.ts), tried after the lossy encode it competes with. libwebp lossless
 * method 1 at quality 75 came within 2 % of method 4's bytes on the text and chart fixtures (5.7 vs 5.8 KB, 16.1 vs
 * 15.9 KB), and took 0.6–0.8 of method 4's time on screenshots. Its cost is 3.5× lossy method 4's on the
 * calibration scale above: the most measured with method 1 on images the rule tries (repeat share ≥ 0.5) was 3.3×
 * (a map and a product photo on white, both then served lossy; a page around a photo 3.1×, text 0.49×, a chart
 * 0.81×), in `node bench/images/lossless.mjs` (and `--extra` on six unseen screenshots) on 2026-11-28.
 */
export const losslessWebpRung: EncoderRung = {
  id: 'll',
  setting: { webpLossless: true, webpMethod: 1 },
  encodeMsPerMegapixel: 2015,
};

const fullEffort = (target: TargetFormat): EncoderRung => {
  const rung = encoderLadders[target][0];
  if (!rung) throw new Error(`no encoder setting for ${target}`);
  return rung;
};

/** What the planner knows before decoding: source format and size, JPEG scans, output size and format. */
export interface WorkShape {
  readonly source: { readonly format: ImageFormat; readonly width: number; readonly height: number };
  /** Scans of a JPEG source (1 for baseline); ignored for other formats. */
  readonly jpegScans?: number;
  readonly resized: boolean;
  readonly output: { readonly width: number; readonly height: number };
  readonly target: TargetFormat;
}

/** The estimate, split by stage: each stage is one uninterrupted call on the isolate's thread. */
export interface WorkEstimate {
  readonly decodeMs: number;
  readonly resizeMs: number;
  readonly encodeMs: number;
  readonly totalMs: number;
}

const megapixels = (size: { readonly width: number; readonly height: number }) => (size.width * size.height) / 1e6;

/** Pure: the estimated cost of one transform, at full encoder effort unless a rung is given. */
export function estimateWork(shape: WorkShape, rung: EncoderRung = fullEffort(shape.target)): WorkEstimate {
  const inputMp = megapixels(shape.source);
  const outputMp = megapixels(shape.output);
  // A baseline JPEG's one scan is in its base figure; every further scan adds a pass over the frame.
  const extraScans = shape.source.format === 'jpeg' ? Math.max(0, (shape.jpegScans ?? 1) - 1) : 0;
  const decodeMs = inputMp * (decodeMsPerMegapixel[shape.source.format] + extraScans * jpegMsPerScanMegapixel);
  const resizeMs = shape.resized ? (inputMp + outputMp) * resizeMsPerMegapixel : 0;
  const encodeMs = outputMp * rung.encodeMsPerMegapixel;
  const round = (ms: number) => Math.round(ms);
  return {
    decodeMs: round(decodeMs),
    resizeMs: round(resizeMs),
    encodeMs: round(encodeMs),
    totalMs: round(decodeMs + resizeMs + encodeMs),
  };
}

/** Whether an estimate fits the per-request budget (`IMAGES_MAX_WORK_MS`). */
export const withinBudget = (estimate: WorkEstimate, budgetMs: number) => estimate.totalMs <= budgetMs;

/** The encoder setting a transform will use and its estimate; `reduced` when it is not the full-effort rung. */
export type EncodePlan =
  | { readonly ok: true; readonly rung: EncoderRung; readonly reduced: boolean; readonly estimate: WorkEstimate }
  /** Even the cheapest rung is over the budget; `estimate` is that cheapest one. */
  | { readonly ok: false; readonly estimate: WorkEstimate };

/**
 * Pure: the first rung of the target's ladder whose estimate fits `budgetMs` — full effort when it fits, otherwise the
 * least reduction that does. Decode and resize costs are the same on every rung; only the encode gets cheaper.
 */
export function planEncode(shape: WorkShape, budgetMs: number): EncodePlan {
  const ladder = encoderLadders[shape.target];
  let estimate = estimateWork(shape);
  for (const [index, rung] of ladder.entries()) {
    estimate = estimateWork(shape, rung);
    if (withinBudget(estimate, budgetMs)) return { ok: true, rung, reduced: index > 0, estimate };
  }
  return { ok: false, estimate };
}
