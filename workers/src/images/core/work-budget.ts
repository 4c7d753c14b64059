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

/** Encode cost per megapixel of output at the settings codecs.ts uses (libavif speed 8, libwebp method 4, MozJPEG). */
const encodeMsPerMegapixel: Readonly<Record<TargetFormat, number>> = {
  avif: 1000,
  webp: 575,
  jpeg: 775,
  'baseline-jpeg': 610,
  png: 125,
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

/** Pure: the estimated cost of one transform. */
export function estimateWork(shape: WorkShape): WorkEstimate {
  const inputMp = megapixels(shape.source);
  const outputMp = megapixels(shape.output);
  // A baseline JPEG's one scan is in its base figure; every further scan adds a pass over the frame.
  const extraScans = shape.source.format === 'jpeg' ? Math.max(0, (shape.jpegScans ?? 1) - 1) : 0;
  const decodeMs = inputMp * (decodeMsPerMegapixel[shape.source.format] + extraScans * jpegMsPerScanMegapixel);
  const resizeMs = shape.resized ? (inputMp + outputMp) * resizeMsPerMegapixel : 0;
  const encodeMs = outputMp * encodeMsPerMegapixel[shape.target];
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
