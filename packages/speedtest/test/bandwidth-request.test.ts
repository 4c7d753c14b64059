import { describe, expect, it } from 'vitest';
import { pathTiming, phaseTimeBudgetMs, stallThresholdMs } from '../src/phases/bandwidth-request';
import { downloadRequestBytes } from '../src/phases/bandwidth-streams';

const configured = { targetRequestMs: 500, intervalMs: 250 };

describe('pathTiming', () => {
  it('keeps the configured values on short paths', () => {
    expect(pathTiming(configured, 20)).toEqual({ ...configured });
    expect(pathTiming(configured, 62.5)).toEqual({ targetRequestMs: 500, intervalMs: 250 });
  });

  it('makes upload requests last eight round trips and intervals two on long paths', () => {
    expect(pathTiming(configured, 80)).toEqual({ targetRequestMs: 640, intervalMs: 250 });
    expect(pathTiming(configured, 200)).toEqual({ targetRequestMs: 1600, intervalMs: 400 });
  });

  it('falls back to the configured values when the RTT is unknown', () => {
    expect(pathTiming(configured, Number.NaN)).toEqual({ ...configured });
    expect(pathTiming(configured, 0)).toEqual({ ...configured });
  });
});

describe('downloadRequestBytes', () => {
  const options = { maxBytesPerDirection: 300_000_000, maxStreams: 4, minRequestBytes: 100_000 };

  it('gives every stream a fair share of the byte budget, so each of the most streams gets a request', () => {
    expect(downloadRequestBytes({ ...options, maxDownloadRequestBytes: 100_000_000 })).toBe(75_000_000);
    expect(downloadRequestBytes({ ...options, maxBytesPerDirection: 5_000_000, maxDownloadRequestBytes: 1e8 })).toBe(
      1_250_000,
    );
  });

  it('stays within the request limits', () => {
    expect(downloadRequestBytes({ ...options, maxDownloadRequestBytes: 10_000_000 })).toBe(10_000_000);
    expect(downloadRequestBytes({ ...options, maxBytesPerDirection: 100_000, maxDownloadRequestBytes: 1e8 })).toBe(
      100_000,
    );
  });

  it('never exceeds maxDownloadRequestBytes (the cap of the server), even when minRequestBytes is larger', () => {
    expect(downloadRequestBytes({ ...options, minRequestBytes: 2e9, maxDownloadRequestBytes: 1e9 })).toBe(1e9);
  });
});

describe('stallThresholdMs', () => {
  it('is twice the loaded round trip on a path whose queue has grown', () => {
    expect(stallThresholdMs(80, 240)).toBe(480);
  });

  it('is at least the idle round trip plus the minimum retransmission timeout', () => {
    expect(stallThresholdMs(80, 90)).toBe(280);
  });

  it('falls back to the idle round trip before the first loaded ping', () => {
    expect(stallThresholdMs(200, Number.NaN)).toBe(400);
    expect(stallThresholdMs(200, null)).toBe(400);
  });

  it('never reads a loaded round trip below the idle one', () => {
    expect(stallThresholdMs(200, 50)).toBe(400);
  });

  it('is the minimum retransmission timeout when no round trip is known', () => {
    expect(stallThresholdMs(Number.NaN, null)).toBe(200);
  });
});

describe('phaseTimeBudgetMs', () => {
  const options = { maxDurationPerDirectionMs: 12_000, minRoundTripsPerDirection: 30 };

  it('keeps the configured budget on paths up to 400 ms (12 s over 30 round trips)', () => {
    expect(phaseTimeBudgetMs(options, 20)).toBe(12_000);
    expect(phaseTimeBudgetMs(options, 400)).toBe(12_000);
  });

  it('gives a long path 30 round trips: 18 s at 600 ms, 30 s at 1 s', () => {
    expect(phaseTimeBudgetMs(options, 600)).toBe(18_000);
    expect(phaseTimeBudgetMs(options, 1000)).toBe(30_000);
  });

  it('never more than five times the configured budget', () => {
    expect(phaseTimeBudgetMs(options, 5000)).toBe(60_000);
  });

  it('is the configured budget alone with no round-trip floor, or no round trip known', () => {
    expect(phaseTimeBudgetMs({ ...options, minRoundTripsPerDirection: 0 }, 1000)).toBe(12_000);
    expect(phaseTimeBudgetMs(options, Number.NaN)).toBe(12_000);
    expect(phaseTimeBudgetMs(options, 0)).toBe(12_000);
  });
});
