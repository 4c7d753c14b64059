import { describe, expect, it } from 'vitest';
import { GoodputMeter } from '../src/stats/goodput';
import {
  decideRamp,
  nextRequestBytes,
  pastDecision,
  type RampState,
  roomForAnotherStep,
  settledTail,
  valuesOf,
} from '../src/stats/ramp';

describe('GoodputMeter', () => {
  it('turns bytes per 100 ms interval into bits per second', () => {
    const meter = new GoodputMeter(1000, 100);
    meter.addSpan(1000, 1100, 12_500);
    expect(meter.closedIntervals(1100)).toEqual([1_000_000]);
  });

  it('spreads a span evenly over the intervals it covers', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(50, 250, 2000);
    // 500 bytes in [50,100), 1000 in [100,200), 500 in [200,250).
    expect(meter.closedIntervals(300)).toEqual([40_000, 80_000, 40_000]);
  });

  it('adds the bytes of parallel streams together', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 100, 1000);
    meter.addSpan(0, 100, 1000);
    expect(meter.closedIntervals(100)).toEqual([160_000]);
    expect(meter.totalBytes).toBe(2000);
  });

  it('reports only intervals that ended before the settled instant', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 250, 1000);
    expect(meter.closedIntervals(199)).toHaveLength(1);
  });

  it('puts a zero-length span in the interval of its end and counts empty intervals as 0', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(150, 150, 100);
    expect(meter.closedIntervals(200)).toEqual([0, 8000]);
  });

  it('remembers the end of the latest span', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 180, 10);
    meter.addSpan(20, 90, 10);
    expect(meter.lastEndMs).toBe(180);
  });

  it('counts the spans that ended in each closed interval', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 50, 10);
    meter.addSpan(0, 90, 10);
    meter.addSpan(0, 250, 10);
    expect(meter.closedSpanEnds(300)).toEqual([2, 0, 1]);
  });

  it('adds the stretches of one transfer each over its own span, counting one end at the last', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpans([
      { startMs: 0, endMs: 100, bytes: 1000 },
      { startMs: 100, endMs: 200, bytes: 0 },
      { startMs: 200, endMs: 250, bytes: 500 },
    ]);
    expect(meter.closedIntervals(300)).toEqual([80_000, 0, 40_000]);
    expect(meter.closedSpanEnds(300)).toEqual([0, 0, 1]);
    expect(meter.totalBytes).toBe(1500);
    expect(meter.lastEndMs).toBe(250);
  });

  it('leaves an idle gap out of both the bytes and the time of its interval', () => {
    // One stream at 1000 bytes per 100 ms, idle for the last 50 ms of the first interval (between two uploads).
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 50, 500);
    meter.addGap(50, 100);
    meter.addSpan(100, 200, 1000);
    expect(meter.closedIntervals(200)).toEqual([80_000, 80_000]);
  });

  it('drops the bytes other streams moved during a gap, so a stream that filled the pause reads no higher', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 50, 250);
    meter.addSpan(0, 50, 250);
    // Stream two idles for 50 ms while stream one takes the whole link.
    meter.addSpan(50, 100, 500);
    meter.addGap(50, 100);
    expect(meter.closedIntervals(100)).toEqual([80_000]);
  });

  it('reports how long every stream was sending in each interval: its length less its gaps', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 200, 1000);
    meter.addGap(150, 190);
    expect(meter.closedBusyMs(200)).toEqual([100, 60]);
  });

  it('gives an interval that was all gap no sending time, so a figure weighs it not at all', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 200, 1000);
    meter.addGap(90, 210);
    expect(meter.closedBusyMs(200)).toEqual([90, 0]);
  });

  it('counts overlapping gaps once', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 100, 1000);
    meter.addGap(50, 100);
    meter.addGap(60, 100);
    // 500 bytes in the 50 ms outside the gaps.
    expect(meter.closedIntervals(100)).toEqual([80_000]);
  });

  it('falls back to the whole interval when a gap covers all of it', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 100, 1000);
    meter.addGap(0, 100);
    expect(meter.closedIntervals(100)).toEqual([80_000]);
  });

  it('ignores non-positive byte counts', () => {
    const meter = new GoodputMeter(0, 100);
    meter.addSpan(0, 50, 0);
    expect(meter.totalBytes).toBe(0);
  });
});

const base: RampState = {
  intervalsBitsPerSecond: [],
  stepStartIndex: 0,
  previousStepBitsPerSecond: null,
  streams: 1,
  maxStreams: 4,
  windowIntervals: 4,
  tolerance: 0.05,
  maxStepIntervals: 12,
};

describe('decideRamp', () => {
  it('waits until the step has a full window after its first (transition) interval', () => {
    expect(decideRamp({ ...base, intervalsBitsPerSecond: [10, 100, 100, 100] }).action).toBe('wait');
  });

  it('keeps the first step waiting while one stream is still opening its window, then adds streams at its limit', () => {
    const rising = [10, 50, 100, 70, 120];
    expect(decideRamp({ ...base, intervalsBitsPerSecond: rising }).action).toBe('wait');
    expect(decideRamp({ ...base, maxStepIntervals: 4, intervalsBitsPerSecond: rising })).toEqual({
      action: 'add-streams',
      window: [50, 100, 70, 120],
      basis: { startIndex: 1, endIndex: 5, pick: 'all' },
      // Judged at its limit, neither stable nor at a plateau: the summary will not let this window stand alone.
      settled: false,
    });
  });

  it('adds streams once the first step is stable', () => {
    expect(decideRamp({ ...base, intervalsBitsPerSecond: [10, 100, 100, 101, 100, 100] })).toEqual({
      action: 'add-streams',
      window: [100, 101, 100, 100],
      basis: { startIndex: 2, endIndex: 6, pick: 'all' },
      settled: true,
    });
  });

  it('adds streams again while the last doubling raised goodput by more than the tolerance', () => {
    const state = { ...base, streams: 2, stepStartIndex: 5, previousStepBitsPerSecond: 100 };
    expect(decideRamp({ ...state, intervalsBitsPerSecond: [0, 0, 0, 0, 0, 150, 180, 180, 181, 180] }).action).toBe(
      'add-streams',
    );
  });

  it('finishes when more streams did not help, with the stable window', () => {
    const state = { ...base, streams: 2, stepStartIndex: 0, previousStepBitsPerSecond: 100 };
    expect(decideRamp({ ...state, intervalsBitsPerSecond: [90, 102, 103, 102, 102] })).toEqual({
      action: 'finish',
      window: [102, 103, 102, 102],
      basis: { startIndex: 1, endIndex: 5, pick: 'all' },
      stable: true,
    });
  });

  it('does not call flat intervals stable when no transfer ended in them (one stalled upload spread evenly)', () => {
    const state = { ...base, streams: 2, previousStepBitsPerSecond: 100, maxStepIntervals: 20 };
    const flat = { ...state, intervalsBitsPerSecond: [0, 3, 3, 3, 3] };
    expect(decideRamp({ ...flat, spanEndsPerInterval: [1, 0, 0, 0, 0] }).action).toBe('wait');
    expect(decideRamp({ ...flat, spanEndsPerInterval: [1, 1, 0, 1, 0] }).action).toBe('finish');
  });

  it('counts progress over both windows, scaled to how often long requests end', () => {
    // One upload stream of 3.2 s requests in 400 ms intervals: about one end per 8 intervals.
    const state = { ...base, maxStreams: 1, maxStepIntervals: 20, minSpanEndsPerInterval: 1 / 16 };
    const flat = [0, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9];
    expect(
      decideRamp({ ...state, intervalsBitsPerSecond: flat, spanEndsPerInterval: [0, 0, 0, 1, 0, 0, 0, 0, 0] }),
    ).toMatchObject({ action: 'finish', stable: true });
    expect(decideRamp({ ...state, intervalsBitsPerSecond: flat, spanEndsPerInterval: Array(9).fill(0) }).action).toBe(
      'wait',
    );
  });

  it('does not take noise for a gain: finishes when the doubled step is higher only within its swings', () => {
    const state = { ...base, streams: 2, previousStepBitsPerSecond: 3.25, previousStepWindow: [4.0, 1.5, 4.1, 3.4] };
    const noisy = [0, 4.6, 0.1, 2.3, 9.4, 2.5, 5.9, 15.1, 5.8];
    // Judged at its interval limit (its last window is more than 5 % above the one before, so it is no plateau).
    expect(decideRamp({ ...state, maxStepIntervals: 8, intervalsBitsPerSecond: noisy })).toMatchObject({
      action: 'finish',
      stable: false,
    });
  });

  it('does not take the end of slow start for a plateau when a loss burst makes the last window swing', () => {
    // 100/100 Mbit/s, 80 ms, 0.5 % loss, one download stream (Mbit/s): the window before the last still rises
    // (10.8 → 80.4) and the last holds a stall and its burst (24.5, 160.7). Within the noise of both, but 84 % higher.
    const state = { ...base, maxStepIntervals: 20 };
    const opening = [1.3, 10.8, 49.3, 58.8, 80.4, 24.5, 160.7, 95.6, 84.7];
    expect(decideRamp({ ...state, intervalsBitsPerSecond: opening }).action).toBe('wait');
    // Once the rise has left the earlier window, the step is at its plateau and both windows stand for it.
    const settled = [...opening, 96.6, 90.3, 91.2, 98.1];
    expect(decideRamp({ ...state, intervalsBitsPerSecond: settled })).toMatchObject({
      action: 'add-streams',
      window: [24.5, 160.7, 95.6, 84.7, 96.6, 90.3, 91.2, 98.1],
    });
  });

  it('finishes at the stream limit even if more streams would have helped', () => {
    const state = { ...base, streams: 4, maxStreams: 4, previousStepBitsPerSecond: 50 };
    expect(decideRamp({ ...state, intervalsBitsPerSecond: [0, 100, 100, 100, 100] }).action).toBe('finish');
  });

  it('finishes a swinging step at its plateau on both of its last windows (upload intervals)', () => {
    // Upload intervals on a 47.8 Mbit/s link with 40 ms delay (Mbit/s): overlapping requests make them swing, so no
    // window agrees within 5 %, but the last window (48.125) is not above the one before (51.025): a plateau.
    const upload = [62.6, 30, 60.5, 51, 55.5, 43.7, 40.8, 52.5];
    const state = { ...base, streams: 2, previousStepBitsPerSecond: 48, maxStepIntervals: 12 };
    // Their mean is 396.6 / 8 = 49.575, not a gain over 48 by > 5%.
    expect(decideRamp({ ...state, intervalsBitsPerSecond: [0, ...upload] })).toEqual({
      action: 'finish',
      window: upload,
      basis: { startIndex: 1, endIndex: 9, pick: 'all' },
      stable: true,
    });
    const steady = [0, 48, 50, 49, 48, 49];
    expect(decideRamp({ ...state, intervalsBitsPerSecond: steady })).toEqual({
      action: 'finish',
      window: [50, 49, 48, 49],
      basis: { startIndex: 2, endIndex: 6, pick: 'all' },
      stable: true,
    });
  });

  it('waits while goodput still rises past two windows (TCP opening a long path), then finishes at the plateau', () => {
    // 100 Mbit/s, 80 ms RTT: a fixed two-window limit judged this step at 8 intervals (mean 62) while it still rose.
    const rising = [10, 30, 45, 55, 60, 62, 70, 80, 90];
    const state = { ...base, streams: 4, maxStreams: 4, previousStepBitsPerSecond: 40, maxStepIntervals: 20 };
    expect(decideRamp({ ...state, intervalsBitsPerSecond: rising }).action).toBe('wait');
    const settled = [...rising, 94, 95, 96, 94, 95];
    const decision = decideRamp({ ...state, intervalsBitsPerSecond: settled });
    expect(decision.action).toBe('finish');
    if (decision.action === 'finish') {
      // The stable last window alone: the one before it (70 … 94) was lower by more than the tolerance.
      expect(decision.window).toEqual([95, 96, 94, 95]);
      expect(decision.stable).toBe(true);
    }
  });

  it('takes a stable last window alone after a window that held a burst, and both when both were stable', () => {
    // 100 Mbit/s, 80 ms, 0.5 % loss, one stream: the end of slow start (60) and the burst a loss released (113, 136).
    const state = { ...base, streams: 2, maxStreams: 2, previousStepBitsPerSecond: 95, maxStepIntervals: 20 };
    const burst = decideRamp({ ...state, intervalsBitsPerSecond: [0, 60, 113, 136, 92, 97, 95, 94, 97] });
    expect(burst).toMatchObject({ action: 'finish', window: [97, 95, 94, 97], stable: true });
    const steady = decideRamp({ ...state, intervalsBitsPerSecond: [0, 96, 95, 97, 94, 97, 95, 94, 97] });
    expect(steady).toMatchObject({ action: 'finish', window: [96, 95, 97, 94, 97, 95, 94, 97], stable: true });
  });

  it('keeps waiting while goodput swings, then judges the step at its interval limit on its last window', () => {
    const swinging = [0, 100, 140, 90, 130, 95, 135];
    expect(decideRamp({ ...base, maxStreams: 1, intervalsBitsPerSecond: swinging }).action).toBe('wait');
    const decision = decideRamp({ ...base, maxStreams: 1, maxStepIntervals: 6, intervalsBitsPerSecond: swinging });
    // The last four of six contiguous intervals: warm-up left out, no value picked by size.
    expect(decision).toEqual({
      action: 'finish',
      window: [90, 130, 95, 135],
      basis: { startIndex: 3, endIndex: 7, pick: 'all' },
      stable: false,
    });
    // Taken again from the same intervals after late bytes landed in them, the basis gives the window of those values.
    const later = [0, 101, 141, 91, 131, 96, 136];
    if (decision.action === 'finish') expect(valuesOf(decision.basis, later)).toEqual([91, 131, 96, 136]);
    // Intervals that are not there (fewer than the basis names) give nothing rather than a shorter window.
    if (decision.action === 'finish') expect(valuesOf(decision.basis, later.slice(0, 5))).toEqual([]);
  });
});

describe('pastDecision', () => {
  it('runs the figure one interval past the window the ramp decided on, whatever its values', () => {
    expect(pastDecision({ startIndex: 3, endIndex: 11, pick: 'all' })).toEqual({
      startIndex: 3,
      endIndex: 12,
      pick: 'all',
    });
  });
});

describe('roomForAnotherStep', () => {
  it('needs the transition interval, a window and the interval past the decision', () => {
    // 1.2 s intervals (a 600 ms path), windows of 4: 6 intervals, 7.2 s.
    expect(roomForAnotherStep(7200, 1200, 4)).toBe(true);
    expect(roomForAnotherStep(7199, 1200, 4)).toBe(false);
    // The 25/3 Mbit/s, 600 ms run that settled with 3 intervals of its 18 s left.
    expect(roomForAnotherStep(3600, 1200, 4)).toBe(false);
    // Short paths: 250 ms intervals leave room until the last 1.5 s of the budget.
    expect(roomForAnotherStep(1500, 250, 4)).toBe(true);
    expect(roomForAnotherStep(1000, 250, 4)).toBe(false);
  });
});

describe('settledTail', () => {
  it('takes the whole step when it is no longer than a window', () => {
    expect(settledTail([1, 2, 3], 4, 0.05)).toEqual([1, 2, 3]);
  });

  it('takes the last window while goodput still rises', () => {
    expect(settledTail([10, 20, 30, 40, 50, 60, 70, 80], 4, 0.05)).toEqual([50, 60, 70, 80]);
    expect(settledTail([10, 20, 30, 40, 50, 60], 4, 0.05)).toEqual([30, 40, 50, 60]);
  });

  it('takes the last two windows once the last is not above the one before by more than the tolerance', () => {
    expect(settledTail([5, 100, 96, 104, 100, 103, 99, 101, 100], 4, 0.05)).toEqual([
      100, 96, 104, 100, 103, 99, 101, 100,
    ]);
    // A falling step (e.g. cross traffic) is averaged over both windows rather than reported at its lowest.
    expect(settledTail([100, 100, 100, 100, 80, 80, 80, 80], 4, 0.05)).toHaveLength(8);
  });
});

describe('nextRequestBytes', () => {
  it('sizes the next request to last the target time at the last rate', () => {
    expect(nextRequestBytes(1_000_000, 100, 500, 100_000, 100_000_000)).toBe(5_000_000);
  });

  it('grows at most 8× per request', () => {
    expect(nextRequestBytes(100_000, 1, 500, 100_000, 100_000_000)).toBe(800_000);
  });

  it('shrinks a request that took too long, but not below the minimum', () => {
    expect(nextRequestBytes(1_000_000, 2000, 500, 100_000, 100_000_000)).toBe(250_000);
    expect(nextRequestBytes(100_000, 5000, 500, 100_000, 100_000_000)).toBe(100_000);
  });

  it('never exceeds the maximum', () => {
    expect(nextRequestBytes(50_000_000, 100, 500, 100_000, 60_000_000)).toBe(60_000_000);
  });
});
