import { describe, expect, it } from 'vitest';
import { capLevel, levelOf, meanEstimate, medianEstimate, tQuantile95 } from '../src/stats/confidence';

describe('meanEstimate', () => {
  it('uses the t quantile: [90,110,100,100] has mean 100 and half-width 3.182·sqrt(200/3)/2 (13%)', () => {
    const estimate = meanEstimate([90, 110, 100, 100]);
    const halfWidth = (3.182 * Math.sqrt(200 / 3)) / 2;
    expect(estimate.value).toBe(100);
    expect(estimate.low).toBeCloseTo(100 - halfWidth, 10);
    expect(estimate.high).toBeCloseTo(100 + halfWidth, 10);
    expect(estimate.level).toBe('medium');
  });

  it('is high confidence when intervals agree within a percent', () => {
    expect(meanEstimate([1000, 1001, 999, 1000]).level).toBe('high');
  });

  it('is low confidence from a single value', () => {
    expect(meanEstimate([42])).toMatchObject({ value: 42, level: 'low', sampleCount: 1 });
  });
});

describe('medianEstimate', () => {
  it('bounds the median of 1..20 by order statistics 6 and 15', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(medianEstimate(values)).toMatchObject({ value: 10.5, low: 6, high: 15, sampleCount: 20 });
  });

  it('counts a tight spread in whole milliseconds as high confidence (timer resolution)', () => {
    expect(medianEstimate([3, 3, 4, 3, 3, 4, 3, 3, 3, 4]).level).toBe('high');
  });

  it('is low confidence with fewer than 5 samples', () => {
    expect(medianEstimate([10, 10, 10]).level).toBe('low');
  });

  it('handles no samples', () => {
    expect(medianEstimate([])).toMatchObject({ sampleCount: 0, level: 'low' });
  });
});

describe('levels', () => {
  it('maps relative half-widths of 5% and 15% to the level boundaries', () => {
    expect(levelOf(100, 5)).toBe('high');
    expect(levelOf(100, 15)).toBe('medium');
    expect(levelOf(100, 15.1)).toBe('low');
  });

  it('falls back to the normal quantile beyond 30 degrees of freedom', () => {
    expect(tQuantile95(3)).toBe(3.182);
    expect(tQuantile95(100)).toBe(1.96);
  });
});

describe('capLevel', () => {
  it('lowers a high estimate to the ceiling and leaves a lower one alone', () => {
    const high = meanEstimate([100, 100, 100, 100]);
    expect(capLevel(high, 'medium').level).toBe('medium');
    expect(capLevel({ ...high, level: 'low' }, 'medium').level).toBe('low');
  });
});
