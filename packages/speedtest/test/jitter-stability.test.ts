import { describe, expect, it } from 'vitest';
import { jitter, jitterWithoutStalls, STALL_MS, withoutStalls } from '../src/stats/jitter';
import { clearlyAbove, isStable, relativeSpread, trimmed } from '../src/stats/stability';

describe('jitter', () => {
  it('is the mean absolute difference of consecutive pings: 10,12,9,9 gives (2+3+0)/3', () => {
    expect(jitter([10, 12, 9, 9])).toBeCloseTo(5 / 3, 10);
  });

  it('depends on order, unlike a standard deviation', () => {
    expect(jitter([1, 2, 1, 2])).toBe(1);
    expect(jitter([1, 1, 2, 2])).toBeCloseTo(1 / 3, 10);
  });

  it('is null with fewer than two pings', () => {
    expect(jitter([5])).toBeNull();
  });
});

describe('jitterWithoutStalls', () => {
  it('leaves out a ping a lost packet stalled and takes the difference across it', () => {
    // A recorded 25/5 Mbit/s, 15 ms, 2 % loss run: one ping 228 ms late. Counted, it made the jitter ~24 ms.
    const pings = [20.1, 19.8, 20.4, 248.3, 20.0, 19.9];
    expect(jitter(pings)).toBeGreaterThan(80);
    const figures = jitterWithoutStalls(pings);
    expect(figures.stalledPings).toBe(1);
    expect(figures.jitterMs).toBeCloseTo((0.3 + 0.6 + 0.4 + 0.1) / 4, 10);
  });

  it('keeps every ping less than STALL_MS above the median, however uneven', () => {
    const pings = [40, 41, 40 + STALL_MS - 1, 40, 120, 42];
    expect(withoutStalls(pings)).toEqual(pings);
    expect(jitterWithoutStalls(pings)).toEqual({ jitterMs: jitter(pings), stalledPings: 0 });
  });

  it('is null without two pings left, and counts nothing in an empty list', () => {
    expect(jitterWithoutStalls([])).toEqual({ jitterMs: null, stalledPings: 0 });
    expect(jitterWithoutStalls([30, 30, 900])).toEqual({ jitterMs: 0, stalledPings: 1 });
    expect(jitterWithoutStalls([30, 900])).toEqual({ jitterMs: null, stalledPings: 1 });
  });
});

describe('stability', () => {
  it('measures spread as (max − min) / mean', () => {
    expect(relativeSpread([95, 100, 105])).toBeCloseTo(0.1, 10);
  });

  it('calls 4 intervals within 5% stable', () => {
    expect(isStable([50, 98, 100, 101, 102], 4, 0.05)).toBe(true);
  });

  it('does not call a window stable when one interval is 6% off', () => {
    expect(isStable([100, 100, 100, 106], 4, 0.05)).toBe(false);
  });

  it('needs at least a full window', () => {
    expect(isStable([100, 100, 100], 4, 0.05)).toBe(false);
  });

  it('never calls an idle link (all zeros) stable', () => {
    expect(isStable([0, 0, 0, 0], 4, 0.05)).toBe(false);
  });
});

describe('trimmed', () => {
  it('keeps the middle half of eight values by default', () => {
    expect(trimmed([8, 1, 7, 2, 6, 3, 5, 4])).toEqual([3, 4, 5, 6]);
  });

  it('drops the requested fractions, rounded down: 30% low and 10% high of ten values', () => {
    expect(trimmed([10, 1, 9, 2, 8, 3, 7, 4, 6, 5], 0.3, 0.1)).toEqual([4, 5, 6, 7, 8, 9]);
  });

  it('keeps everything when there are too few values to drop any', () => {
    expect(trimmed([3, 1, 2])).toEqual([1, 2, 3]);
  });
});

describe('clearlyAbove', () => {
  it('needs more than the tolerance when both windows are steady', () => {
    expect(clearlyAbove([106, 106, 106, 106], [100, 100, 100, 100], 0.05)).toBe(true);
    expect(clearlyAbove([104, 104, 104, 104], [100, 100, 100, 100], 0.05)).toBe(false);
    expect(clearlyAbove([100, 100], [106, 106], 0.05)).toBe(false);
  });

  it('needs more than two standard errors when the windows swing (lossy long path)', () => {
    // 5 Mbit/s, 200 ms, 0.5 % loss, 400 ms intervals: 6.7 against 4.4 is noise, not a gain.
    expect(clearlyAbove([2.5, 5.9, 15.1, 5.8], [4.0, 1.5, 4.1, 3.4], 0.05)).toBe(false);
    expect(clearlyAbove([9.5, 10.1, 9.8, 10.3], [4.0, 4.5, 4.1, 4.4], 0.05)).toBe(true);
  });

  it('compares with a single reference value without noise of its own', () => {
    expect(clearlyAbove([180, 180, 181, 180], [100], 0.05)).toBe(true);
  });
});
