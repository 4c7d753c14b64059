import { type BandwidthResult, buildResult, meanEstimate, resolveOptions } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { metricData } from '../src/details';

/** An upload the engine measured over HTTP requests: 40 and 44 Mbit/s intervals, 4 MB in 800 ms. */
const upload: BandwidthResult = {
  bitsPerSecond: meanEstimate([40e6, 44e6]),
  headlineBasisBitsPerSecond: [40e6, 44e6],
  headlineSource: 'intervals',
  streams: 2,
  stopReason: 'stable',
  clientBytes: 4_000_000,
  serverBytes: 4_000_000,
  durationMs: 800,
  transport: 'http',
};

const resultWith = (phase: BandwidthResult) =>
  buildResult({
    startedAt: '2026-11-28T00:00:00.000Z',
    durationMs: 5_000,
    idlePings: [],
    downloadLoadedPings: [],
    uploadLoadedPings: [],
    download: null,
    upload: phase,
    loss: null,
    lossNote: 'not measured',
    samples: [],
    intervals: [],
    totalBytes: { download: 0, upload: 4_000_000 },
    options: resolveOptions({}),
  });

describe('the upload details', () => {
  it('say when a buffering proxy made the engine spread each upload over its request', () => {
    expect(metricData(resultWith({ ...upload, bufferedByProxy: true }), 'upload').headline).toMatch(
      /A proxy on the way took each upload in whole before passing it on.*spread over the request instead\.$/,
    );
  });

  it('say so under a headline taken from the phase average too', () => {
    const averaged = { ...upload, headlineSource: 'phase-average' as const, bufferedByProxy: true as const };
    expect(metricData(resultWith(averaged), 'upload').headline).toContain('A proxy on the way');
  });

  it('say nothing of proxies when the server read the uploads off the link', () => {
    expect(metricData(resultWith(upload), 'upload').headline).not.toContain('proxy');
  });
});

describe('the bandwidth details under a hold-back correction', () => {
  const corrected: BandwidthResult = {
    ...upload,
    bitsPerSecond: meanEstimate([41.2e6, 45.3e6]),
    holdBack: { lossPercent: 0.5, startRttMs: 100.2, endRttMs: 199.7, factor: 1.03, uncorrectedBitsPerSecond: 42e6 },
  };

  it('say what the figure put back, from which loss and round trips', () => {
    expect(metricData(resultWith(corrected), 'upload').headline).toContain(
      'With 0.50 % loss measured up, TCP held each stream',
    );
    expect(metricData(resultWith(corrected), 'upload').headline).toContain(
      'grew from 100 to 200 ms across the window, so more was held back at its end than at its start: the headline is that mean +3.0 % (× 1.030, the upload_hold_back_factor row of the CSV).',
    );
  });

  it('say nothing of it when the figure was not corrected', () => {
    expect(metricData(resultWith(upload), 'upload').headline).not.toContain('held');
  });
});
