// Statistics for the Speed Page, free of I/O: the median of a variant's runs, a 95 % bootstrap interval around it,
// and whether two variants' intervals overlap (then the report makes no claim of a difference).

/** Median of the finite values; NaN when there are none. @param {readonly number[]} values */
export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * A small seeded generator (mulberry32) so the same runs always give the same interval: a report that changes
 * when re-rendered would not be trusted.
 * @param {number} seed
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Percentile bootstrap of the median: resample the runs with replacement `resamples` times, take each resample's
 * median, and report the 2.5th and 97.5th percentiles of those medians. With one run the interval is that run.
 * @param {readonly number[]} values
 * @param {{ resamples?: number, confidence?: number, seed?: number }} [options]
 * @returns {{ median: number, low: number, high: number, runs: number }}
 */
export function bootstrapMedian(values, { resamples = 2000, confidence = 0.95, seed = 1 } = {}) {
  const finite = values.filter((v) => Number.isFinite(v));
  const center = median(finite);
  if (finite.length <= 1) return { median: center, low: center, high: center, runs: finite.length };
  const random = seededRandom(seed);
  const medians = new Float64Array(resamples);
  const sample = new Array(finite.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < finite.length; i++) sample[i] = finite[Math.floor(random() * finite.length)];
    medians[r] = median(sample);
  }
  medians.sort();
  const tail = (1 - confidence) / 2;
  return {
    median: center,
    low: quantile(medians, tail),
    high: quantile(medians, 1 - tail),
    runs: finite.length,
  };
}

/** Linear-interpolated quantile of sorted values. @param {ArrayLike<number>} sorted @param {number} q in [0, 1] */
export function quantile(sorted, q) {
  if (sorted.length === 0) return Number.NaN;
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below] + (sorted[above] - sorted[below]) * (position - below);
}

/** Whether two closed intervals share any value. @param {{ low: number, high: number }} a @param {{ low: number, high: number }} b */
export function intervalsOverlap(a, b) {
  return a.low <= b.high && b.low <= a.high;
}

/**
 * A feature's effect on one metric against the baseline: the change of the median in % (negative = lower) and
 * `claim: false` when the 95 % intervals overlap, so the runs do not show a difference.
 * @param {{ median: number, low: number, high: number }} baseline
 * @param {{ median: number, low: number, high: number }} variant
 */
export function compare(baseline, variant) {
  const changePct = baseline.median === 0 ? Number.NaN : (100 * (variant.median - baseline.median)) / baseline.median;
  // A metric missing from either side (NaN) supports no claim.
  return { changePct, claim: Number.isFinite(changePct) && !intervalsOverlap(baseline, variant) };
}
