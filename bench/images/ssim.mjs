// SSIM (Wang et al. 2004) on luma, over 8x8 windows with a stride of 4 and uniform weights: the common fast variant
// (libvips/ImageMagick use Gaussian 11x11; numbers differ in the third decimal, orderings do not).

const c1 = (0.01 * 255) ** 2;
const c2 = (0.03 * 255) ** 2;

/**
 * BT.601 luma of 8-bit RGBA.
 * @param {Uint8Array | Uint8ClampedArray} rgba
 */
function luma(rgba) {
  const out = new Float64Array(rgba.length / 4);
  for (let index = 0; index < out.length; index += 1) {
    out[index] = 0.299 * rgba[index * 4] + 0.587 * rgba[index * 4 + 1] + 0.114 * rgba[index * 4 + 2];
  }
  return out;
}

/**
 * Mean SSIM of two same-sized RGBA images, 1 = identical.
 * @param {{ data: Uint8Array | Uint8ClampedArray, width: number, height: number }} a
 * @param {{ data: Uint8Array | Uint8ClampedArray, width: number, height: number }} b
 */
export function ssim(a, b, windowSize = 8, stride = 4) {
  if (a.width !== b.width || a.height !== b.height) throw new Error('ssim: sizes differ');
  const x = luma(a.data);
  const y = luma(b.data);
  const n = windowSize * windowSize;
  let total = 0;
  let windows = 0;
  for (let top = 0; top + windowSize <= a.height; top += stride) {
    for (let left = 0; left + windowSize <= a.width; left += stride) {
      let sumX = 0;
      let sumY = 0;
      let sumXX = 0;
      let sumYY = 0;
      let sumXY = 0;
      for (let row = top; row < top + windowSize; row += 1) {
        for (let column = left; column < left + windowSize; column += 1) {
          const index = row * a.width + column;
          const valueX = x[index] ?? 0;
          const valueY = y[index] ?? 0;
          sumX += valueX;
          sumY += valueY;
          sumXX += valueX * valueX;
          sumYY += valueY * valueY;
          sumXY += valueX * valueY;
        }
      }
      const meanX = sumX / n;
      const meanY = sumY / n;
      const varX = sumXX / n - meanX * meanX;
      const varY = sumYY / n - meanY * meanY;
      const cov = sumXY / n - meanX * meanY;
      total += ((2 * meanX * meanY + c1) * (2 * cov + c2)) / ((meanX ** 2 + meanY ** 2 + c1) * (varX + varY + c2));
      windows += 1;
    }
  }
  return total / windows;
}
