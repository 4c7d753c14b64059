import { describe, expect, it } from 'vitest';
import { csvRecords, resultToCsv } from '../src/csv';
import { resolveOptions } from '../src/options';
import { buildResult } from '../src/result';
import { meanEstimate } from '../src/stats/confidence';
import {
  correctedForHoldBack,
  heldBackMs,
  holdBackApplies,
  holdBackFactor,
  windowRoundTrips,
} from '../src/stats/hold-back';
import type { BandwidthResult } from '../src/types';
import { measuredDownload } from './bandwidth-sample';
import { pingSample as ping } from './ping-sample';

describe('heldBackMs', () => {
  it('is nothing without losses', () => {
    expect(heldBackMs(200, 0)).toBe(0);
  });

  it('is about half a loss per round trip times the round trip when losses are rare (x = λR small)', () => {
    // 1 loss/s, 100 ms: x = 0.1, g ≈ x/2 − x²/6 = 0.0484.
    expect(heldBackMs(100, 1)).toBeCloseTo(100 * (1 - (1 - Math.exp(-0.1)) / 0.1), 9);
    expect(heldBackMs(100, 1)).toBeCloseTo(4.84, 2);
  });

  it('approaches the whole round trip when every round trip has losses', () => {
    // 100 losses/s, 200 ms: x = 20, g = 1 − (1 − e^−20)/20 = 0.95.
    expect(heldBackMs(200, 100)).toBeCloseTo(190, 3);
  });
});

describe('holdBackFactor', () => {
  // 100/100 Mbit/s, 80 ms, 0.5 % loss: two streams at 95.6 Mbit/s, the round trip 100 → 200 ms over a 3.5 s window.
  const link = { bitsPerSecond: 93.6e6, streams: 2, lossRate: 0.005, windowMs: 3500, startRttMs: 100, endRttMs: 200 };

  it('puts back what the growing hold-back kept from the window', () => {
    // λ = 0.005 · 93.6e6 / 2 / 8 / 1448 = 20.2 losses/s per stream; held 57.1 → 151.4 ms; 3500 / (3500 − 94.3).
    const factor = holdBackFactor(link);
    expect(factor).toBeGreaterThan(1.02);
    expect(factor).toBeLessThan(1.03);
    expect(93.6e6 * factor).toBeCloseTo(96.2e6, -5);
  });

  it('changes nothing without loss, round trip change or a window', () => {
    expect(holdBackFactor({ ...link, lossRate: 0 })).toBe(1);
    expect(holdBackFactor({ ...link, endRttMs: 100 })).toBe(1);
    expect(holdBackFactor({ ...link, windowMs: 0 })).toBe(1);
    expect(holdBackFactor({ ...link, startRttMs: Number.NaN })).toBe(1);
  });

  it('lowers the figure when the round trip fell across the window (the start held more)', () => {
    expect(holdBackFactor({ ...link, startRttMs: 200, endRttMs: 100 })).toBeLessThan(0.98);
  });

  it('leaves a window too short for the change of its round trip alone', () => {
    // 90 ms more held back on a 400 ms window would be +29 %: past what the model can vouch for.
    expect(holdBackFactor({ ...link, windowMs: 400 })).toBe(1);
  });

  it('leaves losses rarer than two per stream and round trip to the trailing-dip rule', () => {
    // 3 Mbit/s, 2 streams, 1 %: 1.3 losses/s per stream, 0.57 per 440 ms round trip: holds are separate dips.
    const slow = { bitsPerSecond: 3e6, streams: 2, lossRate: 0.01, windowMs: 3000, startRttMs: 140, endRttMs: 440 };
    expect(holdBackFactor(slow)).toBe(1);
    // 10/2 Mbit/s, 60 ms, 1 %: 4.3 losses/s per stream; 1.3 per 310 ms round trip (none), 2.2 per 510 ms.
    const tenTwo = { bitsPerSecond: 10e6, streams: 2, lossRate: 0.01, windowMs: 3750, startRttMs: 100, endRttMs: 310 };
    expect(holdBackFactor(tenTwo)).toBe(1);
    expect(holdBackFactor({ ...tenTwo, endRttMs: 510 })).toBeGreaterThan(1.05);
    // The same round trips with every round trip lossy put back nearly all 300 ms: +11 %.
    expect(holdBackFactor({ ...slow, lossRate: 0.5 })).toBeGreaterThan(1.09);
  });
});

describe('windowRoundTrips', () => {
  const pings = [ping(900, 90, 'download'), ping(1100, 110, 'download'), ping(1300, 130, 'download')];

  it('takes the median of the pings sent around the start and of those in the last 800 ms', () => {
    const at = windowRoundTrips(
      [...pings, ping(3300, 190, 'download'), ping(3500, 210, 'download'), ping(3700, 230, 'download')],
      { startMs: 1000, endMs: 4000 },
    );
    expect(at).toEqual({ startRttMs: 110, endRttMs: 210 });
  });

  it('is NaN at an end no ping was sent near', () => {
    expect(windowRoundTrips(pings, { startMs: 1000, endMs: 4000 }).endRttMs).toBeNaN();
  });
});

describe('correctedForHoldBack', () => {
  // An upload over WebSockets: the one figure the engine corrects (holdBackApplies).
  const figure: BandwidthResult = {
    ...measuredDownload,
    transport: 'websocket',
    bitsPerSecond: meanEstimate([93e6, 94e6, 94.2e6]),
    streams: 2,
    headlineWindowMs: { startMs: 2000, endMs: 5500 },
  };
  const pings = [ping(1800, 98, 'upload'), ping(2000, 100, 'upload'), ping(2200, 102, 'upload')].concat(
    [4800, 5000, 5200, 5400].map((startMs) => ping(startMs, 200, 'upload')),
  );

  it('moves the estimate and its interval by the factor and says what it read', () => {
    const corrected = correctedForHoldBack('upload', figure, 0.5, pings);
    const factor = corrected.holdBack?.factor ?? 1;
    expect(factor).toBeGreaterThan(1.02);
    expect(corrected.holdBack).toMatchObject({
      lossPercent: 0.5,
      startRttMs: 100,
      endRttMs: 200,
      uncorrectedBitsPerSecond: figure.bitsPerSecond.value,
    });
    expect(corrected.bitsPerSecond.value).toBeCloseTo(figure.bitsPerSecond.value * factor, 3);
    expect(corrected.bitsPerSecond.low).toBeCloseTo(figure.bitsPerSecond.low * factor, 3);
    expect(corrected.bitsPerSecond.high).toBeCloseTo(figure.bitsPerSecond.high * factor, 3);
    expect(corrected.bitsPerSecond.level).toBe(figure.bitsPerSecond.level);
  });

  it('returns the figure as it was without a measured loss, without loss, or without a window', () => {
    expect(correctedForHoldBack('upload', figure, null, pings)).toBe(figure);
    expect(correctedForHoldBack('upload', figure, 0, pings)).toBe(figure);
    const { headlineWindowMs: _, ...noWindow } = figure;
    expect(correctedForHoldBack('upload', noWindow, 0.5, pings)).toBe(noWindow);
  });

  it('corrects uploads over WebSockets only: an HTTP upload leaves its read stalls out, downloads read no better', () => {
    expect(holdBackApplies('download', figure)).toBe(false);
    expect(holdBackApplies('download', { ...figure, transport: 'http' })).toBe(false);
    expect(correctedForHoldBack('download', { ...figure, transport: 'http' }, 0.5, pings).holdBack).toBeUndefined();
    expect(holdBackApplies('upload', { ...figure, transport: 'websocket' })).toBe(true);
    expect(holdBackApplies('upload', { ...figure, transport: 'http' })).toBe(false);
    expect(holdBackApplies('upload', { ...figure, transport: 'mixed' })).toBe(false);
    const httpUpload = { ...figure, transport: 'http' as const };
    expect(correctedForHoldBack('upload', httpUpload, 0.5, pings)).toBe(httpUpload);
    expect(correctedForHoldBack('upload', { ...figure, transport: 'websocket' }, 0.5, pings).holdBack).toBeDefined();
  });

  it('shows in the CSV as a factor row beside the figure', () => {
    const corrected = correctedForHoldBack('upload', figure, 0.5, pings);
    const result = buildResult({
      startedAt: '2026-11-29T00:00:00.000Z',
      durationMs: 6000,
      idlePings: [ping(0, 85, 'idle')],
      downloadLoadedPings: [],
      uploadLoadedPings: pings,
      download: null,
      upload: corrected,
      loss: null,
      lossNote: null,
      samples: [ping(0, 85, 'idle'), ...pings],
      intervals: [],
      totalBytes: { download: 0, upload: 40e6 },
      options: resolveOptions({}),
    });
    const rows = csvRecords(resultToCsv(result));
    const factorRow = rows.find((row) => row.metric === 'upload_hold_back_factor');
    expect(Number(factorRow?.value)).toBeCloseTo(corrected.holdBack?.factor ?? 0, 3);
    expect(factorRow?.basis).toContain('100 → 200 ms at 0.50 % loss up');
    expect(rows.find((row) => row.metric === 'upload')?.basis).toContain('× upload_hold_back_factor');
  });
});
