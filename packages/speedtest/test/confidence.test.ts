import { describe, expect, it } from 'vitest';
import { capLevel, levelOf, meanEstimate, medianEstimate, tQuantile95 } from '../src/stats/confidence';

describe('meanEstimate', () => {
  it('puts the t-based relative error on the log scale: [90,110,100,100] gives 100·e^±h, h = 3.182·0.0816/2', () => {
    const estimate = meanEstimate([90, 110, 100, 100]);
    const logHalfWidth = (3.182 * Math.sqrt(200 / 3)) / 100 / 2;
    expect(estimate.value).toBe(100);
    expect(estimate.low).toBeCloseTo(100 * Math.exp(-logHalfWidth), 10);
    expect(estimate.high).toBeCloseTo(100 * Math.exp(logHalfWidth), 10);
    expect(estimate.level).toBe('medium');
  });

  it('never reaches below zero for widely swinging goodput (the symmetric interval gave -290 Mbit/s)', () => {
    // Three 250 ms intervals at 2.4, 0.2 and 0.76 Gbit/s: mean 1.12 Gbit/s, mean − t·sd/√n ≈ −1.6 Gbit/s.
    const values = [2.4e9, 0.2e9, 0.76e9];
    const symmetricLow = 1.12e9 - (4.303 * Math.sqrt((1.28e9 ** 2 + 0.92e9 ** 2 + 0.36e9 ** 2) / 2)) / Math.sqrt(3);
    expect(symmetricLow).toBeLessThan(0);
    const estimate = meanEstimate(values);
    expect(estimate.value).toBeCloseTo(1.12e9, 0);
    expect(estimate.low).toBeGreaterThan(0);
    expect(estimate.low).toBeLessThan(estimate.value);
    expect(estimate.high).toBeGreaterThan(estimate.value);
    expect(estimate.level).toBe('low');
  });

  it('has no interval from one value: 0 to infinity, low confidence', () => {
    expect(meanEstimate([5])).toMatchObject({ low: 0, high: Number.POSITIVE_INFINITY, level: 'low' });
  });

  it('keeps every bound at or above zero for any non-negative input (seeded random sets, 1 to 30 values)', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let trial = 0; trial < 500; trial++) {
      const count = 1 + Math.floor(random() * 30);
      const values = Array.from({ length: count }, () => (random() < 0.2 ? 0 : random() * 1e9));
      const estimate = meanEstimate(values);
      if (estimate.value > 0) {
        expect(estimate.low).toBeGreaterThanOrEqual(0);
        expect(estimate.low).toBeLessThanOrEqual(estimate.value);
        expect(estimate.high).toBeGreaterThanOrEqual(estimate.value);
      }
    }
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
