import { describe, expect, it } from 'vitest';
import { csvRecords, resultToCsv, transferNote } from '../src/csv';
import { resolveOptions } from '../src/options';
import { describeMissing, missingParts } from '../src/partial';
import { buildResult } from '../src/result';
import type { RequestSample } from '../src/types';
import { measuredDownload as download } from './bandwidth-sample';
import { pingSample as ping } from './ping-sample';

const stoppedAfterDownload = buildResult({
  startedAt: '2026-11-28T00:00:00.000Z',
  durationMs: 900,
  idlePings: [ping(0, 10), ping(20, 12), ping(40, 11)],
  downloadLoadedPings: [ping(150, 30, 'download')],
  uploadLoadedPings: [],
  download: { ...download, streams: 1 },
  upload: null,
  loss: null,
  lossNote: 'the run ended before it was measured',
  samples: [ping(0, 10), ping(20, 12), ping(40, 11), ping(150, 30, 'download')],
  intervals: [],
  totalBytes: { download: 4_000_000, upload: 1_000_000 },
  options: resolveOptions({}),
  partial: { reason: 'stopped', message: null, missing: ['upload', 'loss'] },
});

describe('missingParts', () => {
  const options = resolveOptions({});

  it('lists the upload and loss phases a run stopped after the download never finished', () => {
    const finished = { settledIdlePings: true, download: true, upload: false, loss: false };
    expect(missingParts(options, finished)).toEqual(['upload', 'loss']);
  });

  it('lists the idle pings after the download when the run stopped before them', () => {
    const finished = { settledIdlePings: false, download: true, upload: false, loss: false };
    expect(missingParts(options, finished)).toEqual(['settled-idle-pings', 'upload', 'loss']);
  });

  it('never lists what the options left out of the run', () => {
    const uploadOnly = resolveOptions({ directions: ['upload'], packetLoss: false });
    const finished = { settledIdlePings: true, download: false, upload: false, loss: false };
    expect(missingParts(uploadOnly, finished)).toEqual(['upload']);
  });
});

describe('describeMissing', () => {
  it('joins the parts as a sentence would', () => {
    expect(describeMissing(['upload'])).toBe('upload');
    expect(describeMissing(['upload', 'loss'])).toBe('upload and packet loss');
    expect(describeMissing(['download', 'settled-idle-pings', 'upload'])).toBe(
      'download, idle pings after the download and upload',
    );
  });
});

describe('a partial result', () => {
  it('keeps the finished phases figures: download, its loaded latency and RPM', () => {
    expect(stoppedAfterDownload.download?.bitsPerSecond.value).toBeCloseTo(95e6, -5);
    expect(stoppedAfterDownload.latency.downloadLoadedMs?.value).toBe(30);
    expect(stoppedAfterDownload.rpm.overall).toBe(2000);
  });

  it('classes experiences that need the missing upload as not measured', () => {
    expect(stoppedAfterDownload.quality.videoCalls).toBe('not-measured');
    expect(stoppedAfterDownload.quality.streaming).not.toBe('not-measured');
  });

  it('says in its CSV that it is partial and which phases are missing', () => {
    const partialRow = csvRecords(resultToCsv(stoppedAfterDownload)).find((row) => row.metric === 'partial');
    expect(partialRow?.value).toBe('stopped');
    expect(partialRow?.basis).toContain('before its upload and packet loss finished');
  });

  it('is marked null in a finished run', () => {
    const { partial: _ignored, ...parts } = { ...stoppedAfterDownload, partial: undefined };
    expect(buildResult({ ...parts, idlePings: [], downloadLoadedPings: [], uploadLoadedPings: [] }).partial).toBe(null);
  });
});

const transfer = (overrides: Partial<RequestSample>): RequestSample => ({
  ...ping(100, 5),
  kind: 'upload',
  load: 'upload',
  bytes: 800_000,
  receivedBytes: 800_000,
  durationMs: 1,
  bitsPerSecond: null,
  ...overrides,
});

describe('transfer rows without a rate or timing', () => {
  it('explain an HTTP upload that finished within the idle round trip', () => {
    expect(transferNote(transfer({}))).toMatch(/^no rate: TTFB minus the idle round trip left under 10 ms/);
  });

  it('explain a download too short to time', () => {
    expect(transferNote(transfer({ kind: 'download', load: 'download' }))).toMatch(/^no rate: under 10 ms/);
  });

  it('leave an ordinary transfer row without a note', () => {
    expect(transferNote(transfer({ bitsPerSecond: 80e6, durationMs: 80 }))).toBeNull();
  });

  it('leave TTFB and ping empty on WebSocket rows, which have neither', () => {
    const socketRow = transfer({ timingSource: 'server-report', ttfbMs: 0, pingMs: 0, bitsPerSecond: 64e6 });
    const [row] = csvRecords(resultToCsv({ ...stoppedAfterDownload, samples: [socketRow] }));
    expect([row?.ttfb_ms, row?.ping_ms, row?.timing_source]).toEqual(['', '', 'server-report']);
  });
});

describe('the summary basis', () => {
  it('says "1 stream", not "1 streams"', () => {
    const row = csvRecords(resultToCsv(stoppedAfterDownload)).find((record) => record.metric === 'download');
    expect(row?.basis).toContain('(all streams together, 1 stream, stop: stable)');
  });
});
