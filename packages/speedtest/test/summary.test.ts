import { describe, expect, it } from 'vitest';
import { mean, median, percentile, standardDeviation, summarize } from '../src/stats/summary';

describe('percentile', () => {
  it('interpolates linearly between ranks: p90 of 1..10 is 9.1', () => {
    expect(percentile([10, 1, 2, 3, 4, 5, 6, 7, 8, 9], 0.9)).toBeCloseTo(9.1, 10);
  });

  it('gives the middle value as median of an odd count and the midpoint of an even count', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('returns the only value for any fraction of a single sample', () => {
    expect(percentile([7], 0.25)).toBe(7);
  });

  it('returns NaN for no samples instead of throwing', () => {
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('clamps fractions outside 0..1 to min and max', () => {
    expect(percentile([1, 5], -1)).toBe(1);
    expect(percentile([1, 5], 2)).toBe(5);
  });
});

describe('mean and standard deviation', () => {
  it('computes the sample standard deviation with n−1: [2,4,4,4,5,5,7,9] gives sqrt(32/7)', () => {
    expect(mean([2, 4, 4, 4, 5, 5, 7, 9])).toBe(5);
    expect(standardDeviation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 10);
  });

  it('gives 0 spread for one value', () => {
    expect(standardDeviation([3])).toBe(0);
  });
});

describe('summarize', () => {
  it('reports count, mean, median, min, max and quartiles of 1..5', () => {
    expect(summarize([5, 4, 3, 2, 1])).toEqual({
      count: 5,
      mean: 3,
      median: 3,
      min: 1,
      max: 5,
      p25: 2,
      p75: 4,
      p90: 4.6,
    });
  });
});
