// When a lossless source (PNG, lossless WebP) keeps exact pixels. A screenshot, chart or page of text re-encoded
// lossy loses colour on thin lines and text edges (4:2:0 chroma: a red line turns dull, channel errors up to 105–150
// levels), and often saves nothing: with this Worker's codecs (`node bench/images/lossless.mjs`), lossless WebP was
// 0.18× the bytes of lossy WebP at quality 85 for a page of text and 1.09× for a line chart, while photos saved as PNG
// took 2.0–9.2× and a product page around a photo 5.2×. So the rule is measured per image, not guessed from its
// format: a lossy variant is served only when lossless costs clearly more.
import type { Pixels } from './pixels';

/**
 * Only images where at least this share of pixels repeats its left or upper neighbour are tried lossless: flat
 * fills are what lossless coding lives on. Measured: text and chart screenshots 0.91–0.97, a product page around a
 * photo 0.69; photos 0.04–0.12, a brick texture 0.48. Photos so never pay for a lossless encode they would lose.
 */
export const graphicMinRepeatShare = 0.5;

/**
 * Lossless is served when it costs at most this many times the lossy variant's bytes. 1.25 keeps a chart (1.09× lossy
 * WebP) exact and leaves photos and pages built around a photo (2.0× and more) lossy, so a graphic costs at most a
 * quarter more bytes than the lossy answer the same browser would get.
 */
export const losslessByteAllowance = 1.25;

/** Share of pixels (RGBA, exact) equal to the pixel on their left or above; 0 for an empty image. */
export function repeatShare(pixels: Pixels): number {
  const { width, height, data } = pixels;
  const count = width * height;
  if (count === 0) return 0;
  // One 32-bit word per pixel compares all four channels at once (a copy when the view is not 4-byte aligned).
  const aligned = data.byteOffset % 4 === 0 ? data : data.slice(0, count * 4);
  const words = new Uint32Array(aligned.buffer, aligned.byteOffset, count);
  let repeats = 0;
  for (let index = 1; index < count; index += 1) {
    const value = words[index];
    if (value === words[index - 1] || (index >= width && value === words[index - width])) repeats += 1;
  }
  return repeats / count;
}

/** Whether decoded pixels look like a graphic worth a lossless encode (`graphicMinRepeatShare`). */
export const looksLikeGraphic = (pixels: Pixels) => repeatShare(pixels) >= graphicMinRepeatShare;

/** Whether a lossless encode of `losslessBytes` beats a lossy one of `lossyBytes` by the rule above. */
export const losslessWins = (losslessBytes: number, lossyBytes: number) =>
  losslessBytes <= lossyBytes * losslessByteAllowance;
