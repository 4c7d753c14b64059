import { describe, expect, it } from 'vitest';
import {
  capLevel,
  latencyRule,
  levelOf,
  meanEstimate,
  medianEstimate,
  rateRule,
  tQuantile95,
} from '../src/stats/confidence';

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
  it('bounds the median of 1..20 by the 5th and 16th values (ranks n/2 ∓ 0.98·√n, +1 above)', () => {
    const values = Array.from({ length: 20 }, (_, index) => index + 1);
    expect(medianEstimate(values)).toMatchObject({ value: 10.5, low: 5, high: 16, sampleCount: 20 });
  });

  it('covers the true median of a skewed distribution in about 95% of seeded trials', () => {
    let seed = 11;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return (seed + 1) / (2 ** 31 + 1);
    };
    // Exponential with rate 1 (median ln 2), 20 samples a trial, like one idle-latency phase.
    let covered = 0;
    const trials = 2000;
    for (let trial = 0; trial < trials; trial++) {
      const values = Array.from({ length: 20 }, () => -Math.log(random()));
      const { low, high } = medianEstimate(values);
      if (low <= Math.LN2 && Math.LN2 <= high) covered++;
    }
    expect(covered / trials).toBeGreaterThan(0.93);
  });

  it('counts a tight spread in whole milliseconds as high confidence (timer resolution)', () => {
    expect(medianEstimate([3, 3, 4, 3, 3, 4, 3, 3, 3, 4]).level).toBe('high');
  });

  it('rates steady 20 ms idle pings high', () => {
    const idle = [19, 20, 21, 20, 22, 19, 20, 21, 20, 20, 19, 21, 22, 20, 20, 21, 19, 20, 23, 20];
    expect(medianEstimate(idle).level).toBe('high');
  });

  it('rates loaded pings spread by bufferbloat medium where the 5%/15% rule said low', () => {
    // 30 pings under load (ms), median 60: the 95% interval (9th to 22nd values) is 50–72 ms, ±20%.
    const loaded = [
      40, 42, 44, 46, 47, 48, 49, 49, 50, 52, 54, 56, 58, 59, 60, 60, 61, 62, 64, 66, 68, 72, 75, 80, 85, 90, 100, 110,
      130, 160,
    ];
    expect(medianEstimate(loaded)).toMatchObject({ value: 60, low: 50, high: 72 });
    expect(medianEstimate(loaded, rateRule).level).toBe('low');
    expect(medianEstimate(loaded).level).toBe('medium');
  });

  it('is low confidence with fewer than 5 samples', () => {
    expect(medianEstimate([10, 10, 10]).level).toBe('low');
  });

  it('handles no samples', () => {
    expect(medianEstimate([])).toMatchObject({ sampleCount: 0, level: 'low' });
  });
});

describe('levels', () => {
  it('maps relative half-widths of 5% and 15% to the level boundaries for rates', () => {
    expect(levelOf(100, 5)).toBe('high');
    expect(levelOf(100, 15)).toBe('medium');
    expect(levelOf(100, 15.1)).toBe('low');
  });

  it('maps 10% / 25% (or 1 ms / 3 ms) to the level boundaries for latencies', () => {
    expect(levelOf(100, 10, latencyRule)).toBe('high');
    expect(levelOf(100, 25, latencyRule)).toBe('medium');
    expect(levelOf(100, 26, latencyRule)).toBe('low');
    expect(levelOf(4, 2.5, latencyRule)).toBe('medium');
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
