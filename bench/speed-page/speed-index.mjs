// Speed Index as WebPageTest defines it, free of I/O: each frame's colour histograms (R, G, B; near-white pixels
// left out, as WebPageTest's visualmetrics does, so a white background is not "content") are compared with the blank
// page at navigation start and with the last frame. Visual progress is how much of the histogram change from blank
// to last a frame has made; Speed Index is the area above the progress curve, ∫ (1 − progress(t)) dt from navigation
// start to the last visual change.

/** Channel values above this on all three channels count as white background. */
const whiteThreshold = 250;

/**
 * Histograms of an RGB(A) pixel buffer: 3 × 256 counts.
 * @param {Uint8Array | Buffer} pixels interleaved samples @param {number} channels 3 or 4
 * @returns {Uint32Array}
 */
export function histogramOf(pixels, channels) {
  const histogram = new Uint32Array(3 * 256);
  for (let i = 0; i + 2 < pixels.length; i += channels) {
    const r = pixels[i];
    const g = pixels[i + 1];
    const b = pixels[i + 2];
    if (r > whiteThreshold && g > whiteThreshold && b > whiteThreshold) continue;
    histogram[r]++;
    histogram[256 + g]++;
    histogram[512 + b]++;
  }
  return histogram;
}

/**
 * Progress of `current` from `start` towards `end`, in [0, 1]: per histogram bucket, the part of the start → end
 * change that current has made (capped at the full change), summed over buckets and channels.
 * @param {Uint32Array} current @param {Uint32Array} start @param {Uint32Array} end
 */
export function visualProgress(current, start, end) {
  let moved = 0;
  let total = 0;
  for (let i = 0; i < end.length; i++) {
    const wanted = Math.abs(end[i] - start[i]);
    moved += Math.min(Math.abs(current[i] - start[i]), wanted);
    total += wanted;
  }
  return total === 0 ? 1 : moved / total;
}

/**
 * Visual metrics of one load from its frames (timestamps in ms from navigation start, ascending; the last frame is
 * the finished page). The page is blank (white: an empty histogram) at 0 ms, before the first frame.
 * @param {{ timeMs: number, histogram: Uint32Array }[]} frames
 * @returns {{ speedIndexMs: number, visuallyComplete85Ms: number, visuallyComplete100Ms: number,
 *   firstVisualChangeMs: number, progress: { timeMs: number, progress: number }[] }}
 */
export function speedIndex(frames) {
  if (frames.length === 0) throw new Error('speedIndex needs at least one frame');
  const start = new Uint32Array(frames[0].histogram.length);
  const end = frames[frames.length - 1].histogram;
  const progress = frames.map((frame) => ({
    timeMs: frame.timeMs,
    progress: visualProgress(frame.histogram, start, end),
  }));
  // Until the first frame the page is blank (progress 0).
  let areaMs = Math.max(0, progress[0].timeMs);
  let lastChangeMs = progress[0].progress > 0 ? progress[0].timeMs : 0;
  let firstChangeMs = Number.NaN;
  let complete85Ms = Number.NaN;
  for (let i = 0; i < progress.length; i++) {
    const { timeMs, progress: p } = progress[i];
    const untilMs = i + 1 < progress.length ? progress[i + 1].timeMs : timeMs;
    if (i > 0 && p !== progress[i - 1].progress) lastChangeMs = timeMs;
    if (Number.isNaN(firstChangeMs) && p > 0) firstChangeMs = timeMs;
    if (Number.isNaN(complete85Ms) && p >= 0.85) complete85Ms = timeMs;
    areaMs += (1 - p) * (untilMs - timeMs);
  }
  // The last frame is by definition complete; reaching 100 % is the first frame identical (in histogram) to it.
  const complete100Ms = progress.find((entry) => entry.progress >= 1)?.timeMs ?? lastChangeMs;
  return {
    speedIndexMs: areaMs,
    visuallyComplete85Ms: Number.isNaN(complete85Ms) ? complete100Ms : complete85Ms,
    visuallyComplete100Ms: complete100Ms,
    firstVisualChangeMs: Number.isNaN(firstChangeMs) ? 0 : firstChangeMs,
    progress,
  };
}
