import { describe, expect, it } from 'vitest';
import { resolveOptions } from '../src/options';
import { minMeasuredBytes, noDataFailure } from '../src/phases/no-data';
import { lossTimeFraction, progressWeights } from '../src/progress-weights';

describe('noDataFailure', () => {
  it('fails a download that received nothing, naming how long it waited', () => {
    expect(noDataFailure('download', 0, 4012, 300e6)).toBe('the server sent no data in 4.0 s (download)');
  });

  it('fails an upload the server confirmed almost nothing of', () => {
    expect(noDataFailure('upload', 512, 12_000, 300e6)).toBe('the server received only 512 bytes in 12.0 s (upload)');
  });

  it('passes a direction that moved at least the minimum', () => {
    expect(noDataFailure('download', minMeasuredBytes, 1000, 300e6)).toBeNull();
  });

  it('never asks for more than the direction was allowed to move', () => {
    expect(noDataFailure('download', 5000, 1000, 5000)).toBeNull();
  });
});

describe('progressWeights', () => {
  it('gives each part a share of the bar by its expected time, summing to 1', () => {
    const weights = progressWeights(resolveOptions({ maxDurationPerDirectionMs: 8000 }));
    const total = Object.values(weights).reduce((sum, share) => sum + share, 0);
    expect(total).toBeCloseTo(1, 10);
    // 3000 packets each way every 2 ms plus 1.5 s of drain each, plus 1 s to connect: 16 s against 8 s per direction
    // and 1.7 s of idle pings (12 at the start, 22 after the download, 50 ms each).
    expect(weights.loss).toBeCloseTo(16_000 / (16_000 + 16_000 + 1700), 10);
    expect(weights.loss).toBeGreaterThan(weights.download);
  });

  it('plans for the long budget and slow pings of a long path once the round trip is known', () => {
    const options = resolveOptions({ packetLoss: false });
    // 1 s round trips: 30 of them per direction (30 s, not the configured 12), and each ping a round trip.
    const weights = progressWeights(options, 1000);
    const pingsMs = (12 + 22) * 1000;
    expect(weights.download).toBeCloseTo(30_000 / (60_000 + pingsMs), 10);
    expect(weights.startPings).toBeCloseTo(12_000 / (60_000 + pingsMs), 10);
    // A short path, or a round trip not measured yet: the configured budget and 50 ms pings.
    expect(progressWeights(options, 20)).toEqual(progressWeights(options));
  });

  it('gives nothing to parts the run leaves out', () => {
    const weights = progressWeights(resolveOptions({ directions: ['upload'], packetLoss: false }));
    expect([weights.download, weights.settledPings, weights.loss]).toEqual([0, 0, 0]);
    expect(weights.upload + weights.startPings).toBeCloseTo(1, 10);
  });
});

describe('lossTimeFraction', () => {
  it('leaves the last drain to come when every packet is sent', () => {
    // Each direction: 3000 × 2 ms sending, 1500 ms draining.
    expect(lossTimeFraction(1, 3000)).toBeCloseTo(13_500 / 15_000, 10);
  });

  it('counts the first direction and its drain as done once the second starts sending', () => {
    expect(lossTimeFraction(0.5, 3000)).toBeCloseTo(0.5, 10);
    expect(lossTimeFraction(0, 3000)).toBe(0);
  });
});
