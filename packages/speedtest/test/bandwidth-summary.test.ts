import { describe, expect, it } from 'vitest';
import {
  busyWeighted,
  caughtUpEnd,
  leadingReleases,
  type PhaseObservation,
  summarizeBandwidth,
  transferSample,
  withoutTrailingDips,
} from '../src/phases/bandwidth-summary';
import type { ProbeResult } from '../src/probe';
import { meanEstimate } from '../src/stats/confidence';

const observed: PhaseObservation = {
  direction: 'download',
  closedIntervals: [50, 100, 100, 100, 100, 190, 200, 200, 200, 200],
  intervalMs: 250,
  phaseOffsetMs: 1000,
  phaseDurationMs: 2600,
  streamChanges: [
    { intervalIndex: 0, streams: 1 },
    { intervalIndex: 5, streams: 2 },
  ],
  stepStartIndex: 5,
  finalWindow: [200, 200, 200, 200],
  previousStep: { window: [100, 100, 100, 100], streams: 1 },
  stopReason: 'stable',
  stableIntervals: 4,
  tolerance: 0.05,
  streams: 2,
  meteredBytes: 50_000,
  samples: [],
};

describe('summarizeBandwidth', () => {
  it('reports the mean of the final window with high confidence after a stable stop', () => {
    const { result } = summarizeBandwidth(observed);
    expect(result.bitsPerSecond).toMatchObject({ value: 200, level: 'high', sampleCount: 4 });
    expect(result).toMatchObject({ streams: 2, stopReason: 'stable', clientBytes: 50_000, serverBytes: null });
  });

  it('places each interval on the test clock with the streams running then', () => {
    const { intervals } = summarizeBandwidth(observed);
    expect(intervals[4]).toEqual({
      direction: 'download',
      startMs: 2000,
      durationMs: 250,
      bitsPerSecond: 100,
      streams: 1,
    });
    expect(intervals[5]).toMatchObject({ startMs: 2250, streams: 2 });
  });

  it("gives each interval the phase's own length, two round trips on a long path rather than intervalMs", () => {
    // A 300 ms path: pathTiming made the intervals 600 ms, whatever options.intervalMs said.
    const { intervals } = summarizeBandwidth({ ...observed, intervalMs: 600 });
    expect(intervals[1]).toMatchObject({ startMs: 1600, durationMs: 600 });
  });

  it('places the intervals behind the headline on the test clock, none for a phase average', () => {
    const { result } = summarizeBandwidth({ ...observed, finalWindow: null, stopReason: 'bytes' });
    const count = result.headlineBasisBitsPerSecond.length;
    expect(result.headlineWindowMs).toEqual({ startMs: 3500 - 250 * count, endMs: 3500 });
    const averaged = summarizeBandwidth({
      ...observed,
      closedIntervals: [],
      finalWindow: null,
      previousStep: null,
      stepStartIndex: 0,
    });
    expect(averaged.result.headlineSource).toBe('phase-average');
    expect(averaged.result.headlineWindowMs).toBeUndefined();
  });

  it('judges a budget stop on the current step after its transition interval, at most medium confidence', () => {
    const { result } = summarizeBandwidth({ ...observed, finalWindow: null, stopReason: 'bytes' });
    // Step 2 after its transition interval: 200, 200, 200, 200.
    expect(result.bitsPerSecond).toMatchObject({ value: 200, level: 'medium', sampleCount: 4 });
  });

  it('leaves the warm-up of an unsettled step out after a budget stop: its last window', () => {
    const closedIntervals = [50, 100, 100, 100, 100, 190, 120, 140, 250, 150, 210, 200];
    const { result } = summarizeBandwidth({ ...observed, closedIntervals, finalWindow: null, stopReason: 'time' });
    // Step: 120, 140, 250, 150, 210, 200 → its last window 250, 150, 210, 200.
    expect(result.bitsPerSecond).toMatchObject({ value: 202.5, sampleCount: 4 });
  });

  it('takes both last windows of a budget-stopped step that reached its plateau (bursty intervals)', () => {
    const closedIntervals = [50, 100, 100, 100, 100, 190, 20, 260, 140, 250, 150, 210, 200, 190, 220];
    const { result } = summarizeBandwidth({ ...observed, closedIntervals, finalWindow: null, stopReason: 'time' });
    // Step without the slow-start interval 20: 260 140 250 150 (200) | 210 200 190 220 (205): not rising.
    expect(result.bitsPerSecond).toMatchObject({ value: 1620 / 8, sampleCount: 8 });
  });

  it('keeps the previous step when more streams lowered goodput by more than the tolerance', () => {
    const { result } = summarizeBandwidth({ ...observed, finalWindow: [80, 80, 80, 80] });
    expect(result.bitsPerSecond.value).toBe(100);
    expect(result.streams).toBe(1);
  });

  it('does not let an unsettled previous step stand alone: its window may be a release burst', () => {
    // Download, 40/8 Mbit/s, 120 ms, 0.5 % loss, 2026-11-26 (Mbit/s; the link carries 38.3): the one-stream step was
    // judged at its interval limit while slow start's held-back bytes were released (37.2 … 61.2), and the two-stream
    // step read lower. That window alone read +29.6 %; every interval from it on reads about +2 %.
    const closedIntervals = [
      1.0, 3.8, 7.2, 9.1, 17.8, 24.4, 15.3, 22.7, 43.7, 37.2, 61.2, 51.6, 48.3, 21.9, 36.6, 36.7, 26.2, 45.9, 24.6,
      30.5, 45.1, 42.6, 38.4,
    ];
    const burst = {
      ...observed,
      closedIntervals,
      stepStartIndex: 13,
      finalWindow: [36.6, 36.7, 26.2, 45.9, 24.6, 30.5, 45.1, 42.6],
      finalBasis: { startIndex: 14, endIndex: 23, pick: 'all' as const },
      previousStep: {
        window: [37.2, 61.2, 51.6, 48.3],
        streams: 1,
        basis: { startIndex: 9, endIndex: 13, pick: 'all' as const },
        settled: false,
      },
    };
    const { result } = summarizeBandwidth(burst);
    expect(result.headlineBasisBitsPerSecond).toEqual(closedIntervals.slice(9));
    expect(result.streams).toBe(2);
    expect(result.bitsPerSecond.value).toBeCloseTo(39.06, 1);
    // Had that step settled (stable or at a plateau), its clearly higher window would stand.
    const settled = summarizeBandwidth({ ...burst, previousStep: { ...burst.previousStep, settled: true } }).result;
    expect(settled.headlineBasisBitsPerSecond).toEqual([37.2, 61.2, 51.6, 48.3]);
    expect(settled.streams).toBe(1);
  });

  it('keeps the final step when the previous one was higher only within the tolerance (no max-of-two bias)', () => {
    // 100 > 97 × 1.05 is false: both steps measured the same link, so the later (more streams) one stands.
    const { result } = summarizeBandwidth({ ...observed, finalWindow: [97, 96, 98, 97] });
    expect(result.bitsPerSecond.value).toBe(97);
    expect(result.streams).toBe(2);
  });

  it('averages both last windows of an upload step after a budget stop, not the middle half', () => {
    // Upload intervals on a 47.8 Mbit/s link with 40 ms delay (Mbit/s): overlapping requests make them swing.
    const upload = [62.6, 30, 60.5, 51, 55.5, 43.7, 40.8, 52.5];
    const { result } = summarizeBandwidth({
      ...observed,
      direction: 'upload',
      closedIntervals: [5, 20, 20, 20, 20, 40, ...upload],
      finalWindow: null,
      previousStep: { window: [20, 20, 20, 20], streams: 1 },
      stopReason: 'time',
    });
    // Not rising (48.125 after 51.025), so both windows: 396.6 / 8; the middle half would give 50.675.
    expect(result.bitsPerSecond.value).toBeCloseTo(49.575, 9);
    expect(result.bitsPerSecond.sampleCount).toBe(8);
  });

  it('falls back to the phase average, low confidence, when no interval closed', () => {
    const { result } = summarizeBandwidth({
      ...observed,
      closedIntervals: [],
      finalWindow: null,
      stepStartIndex: 0,
      previousStep: null,
      stopReason: 'bytes',
      meteredBytes: 1_000_000,
      phaseDurationMs: 80,
    });
    expect(result.bitsPerSecond).toMatchObject({ value: 100_000_000, level: 'low' });
    expect(result.headlineSource).toBe('phase-average');
  });

  it('takes every interval from the previous window on when more streams gained nothing (same link, longer)', () => {
    // 5 Mbit/s, 200 ms, 0.5 % loss: losses hold bytes back, then release them, so short windows swing widely.
    const closedIntervals = [0, 4.8, 4.3, 5.3, 4.0, 7.3, 5.9, 4.8, 4.7, 2.7, 5.6, 4.5];
    const { result } = summarizeBandwidth({
      ...observed,
      closedIntervals,
      stepStartIndex: 5,
      finalWindow: [5.9, 4.8, 4.7, 2.7, 5.6, 4.5],
      finalBasis: { startIndex: 6, endIndex: 12, pick: 'all' },
      previousStep: { window: [4.8, 4.3, 5.3, 4.0], streams: 1, basis: { startIndex: 1, endIndex: 5, pick: 'all' } },
    });
    // The final window (4.7) is not 5 % above the previous (4.6), nor the previous above it: indices 1–11.
    expect(result.headlineBasisBitsPerSecond).toEqual(closedIntervals.slice(1));
    expect(result.bitsPerSecond.value).toBeCloseTo(53.9 / 11, 9);
    expect(result.streams).toBe(2);
  });

  it("merges from the previous step's last window only, leaving out the rise a two-window figure held", () => {
    // Upload, 100/100 Mbit/s, 80 ms, 0.5 % loss (Mbit/s): the first step's figure was its last two windows, the
    // earlier one still rising as requests grew (23 → 122); the doubled step gained nothing.
    const closedIntervals = [0, 23, 29, 58, 122, 11, 98, 140, 108, 61, 104, 90, 71, 98, 107];
    const { result } = summarizeBandwidth({
      ...observed,
      direction: 'upload',
      closedIntervals,
      stepStartIndex: 9,
      finalWindow: [104, 90, 71, 98, 107],
      finalBasis: { startIndex: 10, endIndex: 15, pick: 'all' },
      previousStep: {
        window: [23, 29, 58, 122, 11, 98, 140, 108],
        streams: 1,
        basis: { startIndex: 1, endIndex: 9, pick: 'all' },
      },
    });
    expect(result.headlineBasisBitsPerSecond).toEqual(closedIntervals.slice(5));
  });

  it('weighs each interval of the figure by the time every stream was sending in it', () => {
    // Upload, 5/1 Mbit/s, 200 ms, 2 % loss (Mbit/s): the last interval was mostly idle gaps, and a burst released in
    // its 40 ms of sending read 5.9; weighed by time it adds its bytes, not a sixth of the window's rate.
    const closedIntervals = [0, 1, 0.9, 1, 0.9, 5.9];
    const { result } = summarizeBandwidth({
      ...observed,
      direction: 'upload',
      closedIntervals,
      closedBusyMs: [400, 400, 400, 400, 400, 40],
      stepStartIndex: 0,
      finalWindow: [1, 0.9, 1, 0.9, 5.9],
      finalBasis: { startIndex: 1, endIndex: 6, pick: 'all' },
      previousStep: null,
    });
    expect(result.headlineBasisBitsPerSecond).toEqual(closedIntervals.slice(1));
    expect(result.bitsPerSecond.value).toBeCloseTo((400 * 3.8 + 40 * 5.9) / 1640, 9);
  });

  it('leaves out an interval in which some stream was stalled all along', () => {
    // The middle interval is one stream alone while the other waited for a retransmission timeout.
    const estimate = meanEstimate([90, 25, 96]);
    expect(busyWeighted(estimate, [90, 25, 96], [250, 0, 250]).value).toBeCloseTo(93, 9);
  });

  it('gives the plain mean when every interval was all sending', () => {
    const estimate = meanEstimate([1, 2, 3]);
    expect(busyWeighted(estimate, [1, 2, 3], [250, 250, 250])).toEqual(estimate);
  });

  it('takes the decided windows again from the final intervals, so the headline is the mean of reported values', () => {
    // Bytes of requests still in flight at the decision landed in those intervals afterwards.
    const closedIntervals = [50, 101, 99, 100, 104, 190, 201, 203, 199, 205];
    const { result } = summarizeBandwidth({
      ...observed,
      closedIntervals,
      finalBasis: { startIndex: 6, endIndex: 10, pick: 'all' },
      previousStep: { window: [100, 100, 100, 100], streams: 1, basis: { startIndex: 1, endIndex: 5, pick: 'all' } },
    });
    expect(result.headlineBasisBitsPerSecond).toEqual([201, 203, 199, 205]);
    expect(result.bitsPerSecond.value).toBe(202);
    expect(result.headlineSource).toBe('intervals');
  });
});

describe('transferSample', () => {
  const probe: ProbeResult = {
    timing: { ttfbMs: 120, pingMs: 20, payloadMs: 80, source: 'resource-timing' },
    serverMs: 100,
    receivedBytes: 1_000_000,
    startMs: 5000,
    requestStartMs: 5001,
    responseStartMs: 5121,
  };

  it('times a download as ping plus payload', () => {
    expect(transferSample('download', probe, 1_000_000, 2, 20, 4000)).toMatchObject({
      kind: 'download',
      startMs: 1000,
      durationMs: 100,
      bitsPerSecond: 80_000_000,
      parallelStreams: 2,
      load: 'download',
    });
  });

  it('times an upload as TTFB minus the idle round trip', () => {
    expect(transferSample('upload', probe, 1_000_000, 1, 20, 4000)).toMatchObject({
      durationMs: 100,
      receivedBytes: 1_000_000,
    });
  });
});

describe('withoutTrailingDips', () => {
  // Two download windows of 5/1 Mbit/s, 200 ms, 0.5 % loss (2026-11-26, Mbit/s): each ends inside a hold-back.
  const endsInHoldBack = [4.76, 4.79, 4.78, 4.78, 4.78, 4.8, 4.75, 4.75, 2.23, 7.34, 1.26, 7.79, 2.61, 3.24];
  const endsInLongHoldBack = [4.8, 4.79, 4.77, 4.23, 5.3, 4.79, 4.78, 3.49, 1.23, 9.41, 4.64, 4.94, 3.99, 2.93, 2.38];

  it('ends the window after the last interval that owes nothing', () => {
    expect(withoutTrailingDips(endsInHoldBack, 0.05)).toBe(12);
    expect(withoutTrailingDips(endsInLongHoldBack, 0.05)).toBe(12);
  });

  it('keeps dips inside the window and a window that ends on a burst or a steady interval', () => {
    expect(withoutTrailingDips(endsInHoldBack.slice(0, 12), 0.05)).toBe(12);
    expect(withoutTrailingDips([100, 100, 40, 160, 100], 0.05)).toBe(5);
    expect(withoutTrailingDips([100, 100, 100, 92], 0.05)).toBe(4);
    expect(withoutTrailingDips([100, 100, 100, 89], 0.05)).toBe(3);
  });

  it('never drops more than half of the window (a real decline is not a hold-back)', () => {
    expect(withoutTrailingDips([100, 100, 100, 100, 50, 50, 50], 0.05)).toBe(4);
    expect(withoutTrailingDips([100, 20], 0.05)).toBe(1);
    expect(withoutTrailingDips([], 0.05)).toBe(0);
  });
});

describe('leadingReleases', () => {
  // A download on 25/3 Mbit/s, 600 ms (1.2 s intervals, 2026-11-29, Mbit/s): slow start's overshoot held bytes back
  // for three intervals and released them at once; then one stream carried the link (23.9 Mbit/s).
  const geo = [0.2, 0.8, 0.2, 2.2, 6.8, 21.3, 8.4, 2.9, 0.0, 79.8, 23.8, 23.9, 23.7, 23.9, 4.7];

  it('starts the window after a burst that released bytes the intervals before it held back', () => {
    expect(leadingReleases(geo, { start: 9, end: 14 })).toBe(1);
    expect(leadingReleases(geo, { start: 10, end: 14 })).toBe(0);
  });

  it('keeps a high first interval that owes nothing before the window, or not enough', () => {
    // Nothing held back before it: a faster moment, not a release.
    expect(leadingReleases([24, 24, 24, 40, 24, 24, 24, 24], { start: 3, end: 8 })).toBe(0);
    // Held back less than it carries above the median: not only a release.
    expect(leadingReleases([20, 20, 20, 60, 24, 24, 24, 24], { start: 3, end: 8 })).toBe(0);
    // Below 1.5 times the median, whatever was held back before it.
    expect(leadingReleases([0, 0, 0, 35, 24, 24, 24, 24], { start: 3, end: 8 })).toBe(0);
  });

  it('drops consecutive releases while what was held back lasts', () => {
    expect(leadingReleases([0, 0, 0, 50, 50, 24, 24, 24, 24, 24], { start: 3, end: 10 })).toBe(2);
    expect(leadingReleases([0, 0, 0, 60, 70, 24, 24, 24, 24, 24], { start: 3, end: 10 })).toBe(1);
    expect(leadingReleases([0, 0, 0, 60, 24, 24], { start: 3, end: 6 })).toBe(1);
  });

  it('keeps the first interval when nothing comes before the window, or the window is too short to tell', () => {
    expect(leadingReleases([60, 24, 24, 24], { start: 0, end: 4 })).toBe(0);
    expect(leadingReleases([0, 0, 0, 60, 24], { start: 3, end: 5 })).toBe(0);
    expect(leadingReleases([], { start: 0, end: 0 })).toBe(0);
  });

  it('takes the 25/3 Mbit/s, 600 ms figure from the link, not from the burst', () => {
    const { result } = summarizeBandwidth({
      ...observed,
      closedIntervals: geo,
      intervalMs: 1200,
      phaseDurationMs: 18_000,
      streamChanges: [
        { intervalIndex: 0, streams: 1 },
        { intervalIndex: 13, streams: 2 },
      ],
      stepStartIndex: 13,
      finalWindow: null,
      finalBasis: null,
      // Judged at its interval limit, so not settled: the summary merges it with the next step.
      previousStep: {
        window: [79.8, 23.8, 23.9, 23.7, 23.9],
        streams: 1,
        basis: { startIndex: 9, endIndex: 14, pick: 'all' },
        settled: false,
      },
      stopReason: 'time',
    });
    expect(result.headlineBasisBitsPerSecond).toEqual([23.8, 23.9, 23.7, 23.9]);
    expect(result.bitsPerSecond.value).toBeCloseTo(23.825, 3);
  });
});

describe('summarizeBandwidth, trailing hold-backs', () => {
  const closedIntervals = [50, 100, 100, 100, 100, 190, 200, 200, 200, 200, 60, 90];
  const basis = { startIndex: 6, endIndex: 12, pick: 'all' as const };
  const stable = { ...observed, closedIntervals, finalWindow: [200, 200, 200, 200, 60, 90], finalBasis: basis };

  it('leaves a download window ending in dips out of the figure from the first dip on', () => {
    const { result } = summarizeBandwidth(stable);
    expect(result.bitsPerSecond).toMatchObject({ value: 200, sampleCount: 4 });
    expect(result.headlineBasisBitsPerSecond).toEqual([200, 200, 200, 200]);
  });

  it('leaves an upload window ending in dips out the same way', () => {
    const { result } = summarizeBandwidth({ ...stable, direction: 'upload' });
    expect(result.bitsPerSecond).toMatchObject({ value: 200, sampleCount: 4 });
  });
});

describe('caughtUpEnd', () => {
  // A download window of 5/1 Mbit/s, 200 ms, 2 % loss (s60-full, 2026-11-29, Mbit/s; the wire carried 4.78 in every
  // interval): one stream's hold-back (2.72, 1.35, 0.50) while the other read on (4.74), the burst after the window.
  const twoStreamHoldBack = [
    5.46, 4.53, 5.62, 2.95, 6.8, 3.77, 2.58, 5.52, 2.82, 2.55, 7.02, 7.45, 2.72, 1.35, 0.5, 4.74,
  ];

  it('ends a window that holds a stall where the page had read furthest ahead of its mean rate', () => {
    expect(withoutTrailingDips(twoStreamHoldBack, 0.05)).toBe(16);
    expect(caughtUpEnd(twoStreamHoldBack)).toBe(12);
    const kept = twoStreamHoldBack.slice(0, 12);
    expect(kept.reduce((sum, value) => sum + value, 0) / kept.length).toBeCloseTo(4.756, 3);
  });

  it('agrees with withoutTrailingDips on a window that ends in dips', () => {
    const endsInHoldBack = [4.76, 4.79, 4.78, 4.78, 4.78, 4.8, 4.75, 4.75, 2.23, 7.34, 1.26, 7.79, 2.61, 3.24];
    expect(caughtUpEnd(endsInHoldBack)).toBe(12);
  });

  it('keeps the end of a window whose burst came inside it', () => {
    expect(caughtUpEnd([4.8, 4.8, 4.8, 0.3, 9.3, 4.8])).toBe(6);
  });

  it('leaves a window without a stall to withoutTrailingDips: its ends are noise, not hold-backs', () => {
    expect(caughtUpEnd([100, 95, 105, 60, 100, 90])).toBeNull();
    expect(caughtUpEnd([100])).toBeNull();
    expect(caughtUpEnd([])).toBeNull();
  });

  it('moves the end back over at most four intervals and never over half of the window', () => {
    const decline = [100, 100, 100, 100, 100, 100, 100, 100, 40, 40, 40, 40, 40, 40];
    expect(caughtUpEnd(decline)).toBe(10);
    expect(caughtUpEnd([100, 100, 100, 40, 40])).toBe(3);
    expect(caughtUpEnd([100, 100, 100, 100, 20, 20, 20, 20])).toBe(4);
  });
});

describe('summarizeBandwidth, a download window that holds a stall', () => {
  const closedIntervals = [
    1, 2, 3, 4, 5, 6, 7, 8, 5.46, 4.53, 5.62, 2.95, 6.8, 3.77, 2.58, 5.52, 2.82, 2.55, 7.02, 7.45,
  ];
  const tail = [2.72, 1.35, 0.5, 4.74];
  const window = [...closedIntervals.slice(8), ...tail];
  const held = {
    ...observed,
    closedIntervals: [...closedIntervals, ...tail],
    finalWindow: window,
    finalBasis: { startIndex: 8, endIndex: 24, pick: 'all' as const },
    previousStep: null,
  };

  it('ends the figure where the page had caught up, not inside the hold-back the last steady interval hides', () => {
    const { result } = summarizeBandwidth(held);
    expect(result.headlineBasisBitsPerSecond).toEqual(window.slice(0, 12));
    expect(result.bitsPerSecond.value).toBeCloseTo(4.756, 3);
    expect(result.headlineWindowMs).toEqual({ startMs: 1000 + 8 * 250, endMs: 1000 + 20 * 250 });
  });

  it('leaves an upload window to withoutTrailingDips (its intervals are what the server read, weighed by busy time)', () => {
    const { result } = summarizeBandwidth({ ...held, direction: 'upload' });
    expect(result.headlineBasisBitsPerSecond).toEqual(window);
  });
});

describe('summarizeBandwidth, an upload window ending in a hold-back', () => {
  // Replayed intervals (Mbit/s) and busy time (ms) of an upload window on 5/1 Mbit/s, 200 ms, 0.5 % loss
  // (h23up-ab1, 2026-11-26; iperf3 0.973): two streams' reads stop together now and then and the last hole's bytes
  // were read after the window, which read 0.869.
  const rates = [0.961, 0.963, 0.948, 0.046, 2.487, 0.995, 0.894, 0.033, 0.63, 2.157, 0.545, 0.083, 1.778, 3.189];
  const busyMs = [193, 419, 419, 419, 223, 330, 419, 419, 419, 419, 419, 419, 419, 96];
  const closedIntervals = [...rates, 0.949, 0.655, 0.088].map((mbit) => mbit * 1e6);
  const closedBusyMs = [...busyMs, 419, 419, 419];
  const upload: PhaseObservation = {
    ...observed,
    direction: 'upload',
    closedIntervals,
    closedBusyMs,
    streamChanges: [{ intervalIndex: 0, streams: 2 }],
    stepStartIndex: 0,
    previousStep: null,
    finalWindow: closedIntervals,
    finalBasis: { startIndex: 0, endIndex: closedIntervals.length, pick: 'all' },
    stopReason: 'time',
  };
  const weighted = (count: number) => {
    const kept = closedIntervals.slice(0, count);
    const weightsMs = closedBusyMs.slice(0, count);
    const totalMs = weightsMs.reduce((sum, ms) => sum + ms, 0);
    return kept.reduce((sum, rate, index) => sum + rate * (weightsMs[index] as number), 0) / totalMs;
  };

  it('ends the figure before the trailing dips, weighing the rest by busy time', () => {
    const { result } = summarizeBandwidth(upload);
    expect(result.headlineBasisBitsPerSecond).toHaveLength(15);
    expect(result.bitsPerSecond.value).toBeCloseTo(weighted(15), 0);
    expect(result.bitsPerSecond.value / 1e6).toBeCloseTo(0.946, 2);
  });

  it('changes nothing when the trailing dip was all gap (no busy time)', () => {
    const gapAtEnd = { ...upload, closedBusyMs: [...closedBusyMs.slice(0, -1), 0] };
    const { result } = summarizeBandwidth(gapAtEnd);
    expect(result.headlineBasisBitsPerSecond).toHaveLength(15);
    expect(result.bitsPerSecond.value).toBeCloseTo(weighted(15), 0);
  });

  it('keeps a one-interval window and an empty phase falls back to the phase average', () => {
    const one = { ...upload, closedIntervals: [5e5], closedBusyMs: [419], finalWindow: [5e5] };
    expect(
      summarizeBandwidth({ ...one, finalBasis: { startIndex: 0, endIndex: 1, pick: 'all' } }).result,
    ).toMatchObject({
      headlineBasisBitsPerSecond: [5e5],
    });
    const none = { ...upload, closedIntervals: [], closedBusyMs: [], finalWindow: null, finalBasis: null };
    expect(summarizeBandwidth(none).result.headlineSource).toBe('phase-average');
  });
});
