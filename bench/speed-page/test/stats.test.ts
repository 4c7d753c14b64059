import { describe, expect, it } from 'vitest';
import { bootstrapMedian, compare, intervalsOverlap, median, quantile } from '../stats.mjs';

describe('median', () => {
  it('takes the middle value of an odd count and the mean of the middle two of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
  it('ignores values that are not finite and is NaN for none', () => {
    expect(median([Number.NaN, 2, Number.POSITIVE_INFINITY, 4])).toBe(3);
    expect(median([])).toBeNaN();
  });
});

describe('quantile', () => {
  it('interpolates linearly between sorted values', () => {
    expect(quantile([0, 10], 0.25)).toBe(2.5);
    expect(quantile([1, 2, 3, 4, 5], 0.5)).toBe(3);
  });
});

describe('bootstrapMedian', () => {
  it('brackets the median and stays inside the range of the runs', () => {
    const runs = [980, 1010, 1000, 1040, 995];
    const interval = bootstrapMedian(runs);
    expect(interval.median).toBe(1000);
    expect(interval.low).toBeLessThanOrEqual(1000);
    expect(interval.high).toBeGreaterThanOrEqual(1000);
    expect(interval.low).toBeGreaterThanOrEqual(980);
    expect(interval.high).toBeLessThanOrEqual(1040);
  });
  it('gives the same interval for the same runs (seeded), so a report is reproducible', () => {
    const runs = [3, 9, 4, 7, 5, 6];
    expect(bootstrapMedian(runs)).toEqual(bootstrapMedian(runs));
  });
  it('narrows as the runs agree more', () => {
    const wide = bootstrapMedian([500, 1500, 900, 1200, 700]);
    const narrow = bootstrapMedian([990, 1010, 1000, 1005, 995]);
    expect(narrow.high - narrow.low).toBeLessThan(wide.high - wide.low);
  });
  it('covers the true median of a known distribution about 95 % of the time', () => {
    // Uniform(0, 1): true median 0.5. 200 experiments of 15 runs; a percentile bootstrap of the median covers
    // somewhat less than nominal at small n, so accept 85-100 %.
    let covered = 0;
    let state = 7;
    const next = () => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    for (let experiment = 0; experiment < 200; experiment++) {
      const runs = Array.from({ length: 15 }, next);
      const interval = bootstrapMedian(runs, { resamples: 500, seed: experiment + 1 });
      if (interval.low <= 0.5 && interval.high >= 0.5) covered++;
    }
    expect(covered / 200).toBeGreaterThanOrEqual(0.85);
  });
  it('reports a single run as a zero-width interval', () => {
    expect(bootstrapMedian([42])).toEqual({ median: 42, low: 42, high: 42, runs: 1 });
  });
});

describe('overlap flag', () => {
  it('says intervals overlap when they share a value, including touching ends', () => {
    expect(intervalsOverlap({ low: 1, high: 3 }, { low: 2, high: 5 })).toBe(true);
    expect(intervalsOverlap({ low: 1, high: 3 }, { low: 3, high: 5 })).toBe(true);
    expect(intervalsOverlap({ low: 1, high: 2 }, { low: 3, high: 5 })).toBe(false);
  });
  it('makes a claim only for separate intervals, with the change of the median in %', () => {
    const baseline = { median: 3900, low: 3800, high: 4000 };
    expect(compare(baseline, { median: 2400, low: 2300, high: 2500 })).toEqual({
      changePct: (100 * (2400 - 3900)) / 3900,
      claim: true,
    });
    expect(compare(baseline, { median: 3850, low: 3700, high: 3950 }).claim).toBe(false);
    expect(compare(baseline, { median: Number.NaN, low: Number.NaN, high: Number.NaN }).claim).toBe(false);
  });
});
