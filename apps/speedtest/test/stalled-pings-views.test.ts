import { buildResult, type RequestSample, resolveOptions } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { metricData } from '../src/details';
import { lossNoteText } from '../src/loss-view';

/** An idle ping of `pingMs`, as the engine records one (every field a ping row has). */
const idlePing = (startMs: number, pingMs: number): RequestSample => {
  const timing = { durationMs: pingMs, ttfbMs: pingMs, pingMs, serverMs: 0, timingSource: 'resource-timing' as const };
  return {
    kind: 'latency',
    load: 'idle',
    startMs,
    bytes: 0,
    receivedBytes: 0,
    bitsPerSecond: null,
    parallelStreams: 0,
    ...timing,
  };
};

const resultWith = (pingsMs: number[]) => {
  const pings = pingsMs.map((ms, index) => idlePing(index * 300, ms));
  return buildResult({
    startedAt: '2026-11-26T00:00:00.000Z',
    durationMs: 10_000,
    idlePings: pings,
    downloadLoadedPings: [],
    uploadLoadedPings: [],
    download: null,
    upload: null,
    loss: null,
    lossNote: 'not measured',
    samples: pings,
    intervals: [],
    totalBytes: { download: 0, upload: 0 },
    options: resolveOptions({}),
  });
};

describe('the jitter details', () => {
  it('list the differences the figure is the mean of, across a stalled ping, and say why it was left out', () => {
    const result = resultWith([40, 42, 41, 290, 40]);
    expect(result.latency.stalledPings).toBe(1);
    const jitter = metricData(result, 'jitter');
    expect(jitter.values).toEqual([2, 1, 1]);
    expect(result.latency.jitterMs).toBeCloseTo(4 / 3, 10);
    expect(jitter.headline).toContain('without the 1 ping at least 200 ms slower than the median');
  });

  it('say nothing of stalls when there were none', () => {
    const jitter = metricData(resultWith([40, 42, 41]), 'jitter');
    expect(jitter.values).toEqual([2, 1]);
    expect(jitter.headline).toBe('Headline = mean of the differences between consecutive idle pings.');
  });
});

describe('the line shown instead of the loss row', () => {
  it('adds what stalled idle pings say about loss', () => {
    const result = resultWith([40, 42, 41, 290, 40]);
    expect(lossNoteText(result)).toBe(
      'Packet loss not shown: not measured. 1 of 5 idle pings waited for a lost packet to be resent, so this connection does lose packets.',
    );
    expect(lossNoteText(resultWith([40, 42, 41]))).toBe('Packet loss not shown: not measured.');
    expect(lossNoteText({ ...result, lossNote: null })).toBe('');
  });
});
