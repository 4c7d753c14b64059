import type { UrlOptions } from './url-options';

/** A rectangle in pixels. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * What to do to the pixels, in order: cut `crop` out of the source, scale it to `resized`, then place it at
 * `padding.x/y` on a canvas of `width` x `height` (only `fit=pad` makes the canvas larger than `resized`).
 */
export interface ResizePlan {
  readonly crop: Rect;
  readonly resized: { readonly width: number; readonly height: number };
  readonly width: number;
  readonly height: number;
  readonly offset: { readonly x: number; readonly y: number };
}

type Size = { readonly width: number; readonly height: number };
type Box = Pick<UrlOptions, 'width' | 'height' | 'fit' | 'dpr' | 'gravity'>;

const round = (value: number) => Math.max(1, Math.round(value));

/**
 * Computes the output geometry for Cloudflare's `fit` modes:
 * - `scale-down`: fit inside the box, never enlarge. `contain`: fit inside, may enlarge.
 * - `cover`: fill the box exactly, cropping the overflow around `gravity`. `crop`: like cover but never enlarges, so
 *   a source smaller than the box in one direction keeps that dimension.
 * - `pad`: contain, then pad to exactly the box (centred by `gravity`).
 * With only one of width/height the other follows the aspect ratio. Every output side is clamped to `maxDimension`
 * (after `dpr`), keeping the aspect ratio, so options can never ask for more pixels than the deployment allows.
 * An output that keeps the source's aspect ratio (every fit but an exact `pad` or two-sided `cover`/`crop` box) is
 * also scaled down to at most `maxPixels`: such a box is a bound, not a size ("as large as fits"), and Cloudflare's
 * own srcset advice (`fit=contain,width=2560`) would otherwise be refused on every smaller source.
 */
export function planResize(
  source: Size,
  box: Box,
  maxDimension: number,
  maxPixels = Number.POSITIVE_INFINITY,
): ResizePlan {
  const full: Rect = { x: 0, y: 0, width: source.width, height: source.height };
  const boxWidth = box.width === undefined ? undefined : box.width * box.dpr;
  const boxHeight = box.height === undefined ? undefined : box.height * box.dpr;
  const clamp = (size: Size): Size => {
    const scale = Math.min(1, maxDimension / size.width, maxDimension / size.height);
    return { width: round(size.width * scale), height: round(size.height * scale) };
  };
  const simple = (scale: number): ResizePlan => {
    const sized = clamp({ width: source.width * scale, height: source.height * scale });
    const resized = withinPixels(sized, source, maxPixels);
    return { crop: full, resized, ...resized, offset: { x: 0, y: 0 } };
  };
  if (boxWidth === undefined && boxHeight === undefined) return simple(1);
  const widthScale = boxWidth === undefined ? Number.POSITIVE_INFINITY : boxWidth / source.width;
  const heightScale = boxHeight === undefined ? Number.POSITIVE_INFINITY : boxHeight / source.height;
  const fitScale = Math.min(widthScale, heightScale);
  const oneSide = boxWidth === undefined || boxHeight === undefined;
  switch (box.fit) {
    case 'scale-down':
      return simple(Math.min(fitScale, 1));
    case 'contain':
      return simple(fitScale);
    case 'pad': {
      if (oneSide) return simple(fitScale);
      const canvas = clamp({ width: boxWidth ?? 0, height: boxHeight ?? 0 });
      const inner = Math.min(canvas.width / source.width, canvas.height / source.height);
      const resized = { width: round(source.width * inner), height: round(source.height * inner) };
      const offset = {
        x: Math.round((canvas.width - resized.width) * box.gravity.x),
        y: Math.round((canvas.height - resized.height) * box.gravity.y),
      };
      return { crop: full, resized, ...canvas, offset };
    }
    case 'cover':
    case 'crop': {
      if (oneSide) return simple(box.fit === 'crop' ? Math.min(fitScale, 1) : fitScale);
      const coverScale = Math.max(widthScale, heightScale);
      const scale = box.fit === 'crop' ? Math.min(coverScale, 1) : coverScale;
      const unclamped = {
        width: Math.min(boxWidth ?? 0, source.width * scale),
        height: Math.min(boxHeight ?? 0, source.height * scale),
      };
      // The source region that, scaled by `scale`, fills the output; clamping only shrinks the output after that.
      const cropWidth = Math.min(source.width, round(unclamped.width / scale));
      const cropHeight = Math.min(source.height, round(unclamped.height / scale));
      const wanted = clamp(unclamped);
      const crop = {
        x: Math.round((source.width - cropWidth) * box.gravity.x),
        y: Math.round((source.height - cropHeight) * box.gravity.y),
        width: cropWidth,
        height: cropHeight,
      };
      return { crop, resized: wanted, ...wanted, offset: { x: 0, y: 0 } };
    }
  }
}

/**
 * `size` scaled down to at most `maxPixels`, both sides rounded down so the product never passes it, the aspect
 * ratio that of `source` as closely as whole pixels allow.
 */
function withinPixels(size: Size, source: Size, maxPixels: number): Size {
  if (size.width * size.height <= maxPixels) return size;
  const scale = Math.sqrt(maxPixels / (source.width * source.height));
  return {
    width: Math.max(1, Math.floor(source.width * scale)),
    height: Math.max(1, Math.floor(source.height * scale)),
  };
}

/** True when the plan leaves the pixels as they are. */
export function isIdentity(plan: ResizePlan, source: Size): boolean {
  return (
    plan.width === source.width &&
    plan.height === source.height &&
    plan.crop.width === source.width &&
    plan.crop.height === source.height
  );
}
