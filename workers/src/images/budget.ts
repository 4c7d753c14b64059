// The work a transform will cost, estimated from the header before any decode, so a request that would hold the
// isolate's thread for seconds is refused up front instead of discovered afterwards. Costs are milliseconds per
// megapixel of one idle core of the project's 2-core machine, measured with the Worker's own codecs by
// `npm run bench:images` (bench/images/cost.mjs, results in bench/results/images-cost.{csv,json}); they are an
// estimate for ordering requests against a budget, not a promise of wall time.
import type { ImageFormat } from './formats';
import type { TargetFormat } from './transform';

/** Decode cost per megapixel of input. A progressive JPEG adds `perScan` for every scan (each re-walks the frame). */
export const decodeMsPerMegapixel: Readonly<Record<ImageFormat, number>> = {
  jpeg: 25,
  png: 30,
  webp: 35,
  avif: 120,
  gif: 0, // never decoded: GIFs are passed through
};
export const jpegMsPerScanMegapixel = 6;

/** Lanczos3 resize in linear light, per megapixel of input plus output. */
export const resizeMsPerMegapixel = 60;

/** Encode cost per megapixel of output at the settings codecs.ts uses (libavif speed 8, libwebp method 4, MozJPEG). */
export const encodeMsPerMegapixel: Readonly<Record<TargetFormat, number>> = {
  avif: 600,
  webp: 220,
  jpeg: 330,
  'baseline-jpeg': 200,
  png: 150,
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
  const scans = shape.source.format === 'jpeg' ? Math.max(1, shape.jpegScans ?? 1) : 0;
  const decodeMs = inputMp * (decodeMsPerMegapixel[shape.source.format] + scans * jpegMsPerScanMegapixel);
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
