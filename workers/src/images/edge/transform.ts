import type { Orientation } from '../../shared/image-header/orientation';
import type { ImageHeader } from '../../shared/image-header/whole-file';
import type { Rgba } from '../core/css-colour';
import type { CodecFormat, TargetFormat } from '../core/formats';
import { compositeOver, cropPixels, hasAlpha, orientPixels, type Pixels, padPixels } from '../core/pixels';
import type { ResizePlan } from '../core/resize-plan';
import { shownHeader } from '../core/source-checks';
import type { EncoderSetting } from '../core/work-budget';
import { attachProfile } from './attach-profile';
import { decode, encode, encodeBaselineJpeg, resizePixels } from './codecs';

/** Source bytes whose header has been read and checked against the limits. */
export interface CheckedSource {
  readonly bytes: Uint8Array;
  /** The size as shown, after `orientation` (source-checks.ts `shownHeader`). */
  readonly header: ImageHeader & { readonly format: CodecFormat };
  /** How the decoded pixels are turned before anything else (EXIF Orientation, JPEG only). */
  readonly orientation: Orientation;
  /** The source's ICC profile, when its numbers are not sRGB's: every variant carries it (attach-profile.ts). */
  readonly profile?: Uint8Array;
}

/**
 * Lets every request waiting on the thread run (a speed-test probe, a /meta) between two codec calls: each call
 * holds the thread until it returns. A few milliseconds rather than 0: under `wrangler dev` a request crosses
 * several Workers of the same process (entry proxy, then ours), each needing its own turn of the event loop, and a
 * zero timer would let the next codec call start after only the first of them.
 */
const yieldThreadMs = 5;
const white: Rgba = [255, 255, 255, 255];
const transparent: Rgba = [0, 0, 0, 0];

const yieldThread = () => new Promise<void>((resolve) => setTimeout(resolve, yieldThreadMs));

/**
 * Decodes, crops, resizes, pads and encodes (with the encoder setting the work budget chose), then attaches the
 * source's ICC profile, if it has one to carry (`profile`, taken from a CheckedSource when one is given). A
 * `background` (the URL API's `background=`) goes under transparent pixels and fills the padding. Throws on
 * undecodable input; callers fall back to the original.
 */
export async function transformImage(
  source: CheckedSource | Pixels,
  plan: ResizePlan,
  target: TargetFormat,
  quality: number,
  setting: EncoderSetting = {},
  profile: Uint8Array | undefined = 'bytes' in source ? source.profile : undefined,
  background?: Rgba,
): Promise<Uint8Array> {
  const encoded = await encodePlanned(source, plan, target, quality, setting, background);
  return profile ? attachProfile(encoded, target, profile, plan.width, plan.height) : encoded;
}

async function encodePlanned(
  source: CheckedSource | Pixels,
  plan: ResizePlan,
  target: TargetFormat,
  quality: number,
  setting: EncoderSetting,
  background: Rgba | undefined,
): Promise<Uint8Array> {
  await yieldThread();
  let pixels = 'bytes' in source ? await decodeChecked(source) : source;
  await yieldThread();
  pixels = cropPixels(pixels, plan.crop.x, plan.crop.y, plan.crop.width, plan.crop.height);
  pixels = await resizePixels(pixels, plan.resized.width, plan.resized.height);
  await yieldThread();
  const jpeg = target === 'jpeg' || target === 'baseline-jpeg';
  // Padding is transparent until a background goes under everything; JPEG, without alpha, ends on white.
  const fill = jpeg && !background ? white : transparent;
  pixels = padPixels(pixels, plan.width, plan.height, plan.offset.x, plan.offset.y, fill);
  if (background && hasAlpha(pixels)) pixels = compositeOver(pixels, background);
  if (jpeg && hasAlpha(pixels)) pixels = compositeOver(pixels, white);
  await yieldThread();
  if (target === 'baseline-jpeg') return encodeBaselineJpeg(pixels, quality);
  return encode(pixels, target, quality, setting);
}

/**
 * Decodes, checks the decoder agrees with the header (a mismatch means a lying or corrupt file) and turns the pixels
 * the way browsers show the file.
 */
export async function decodeChecked(source: CheckedSource): Promise<Pixels> {
  const { header, orientation } = source;
  // The header gives the size as shown; the same swap gives back the stored size.
  const { width: storedWidth, height: storedHeight } = shownHeader(header, orientation);
  const pixels = await decode(source.bytes, header.format, storedWidth * storedHeight);
  if (pixels.width !== storedWidth || pixels.height !== storedHeight) {
    throw new Error(`decoded ${pixels.width}x${pixels.height}, header said ${storedWidth}x${storedHeight}`);
  }
  if (pixels.data.length !== pixels.width * pixels.height * 4) throw new Error('decoder returned a short buffer');
  return orientPixels(pixels, orientation);
}
