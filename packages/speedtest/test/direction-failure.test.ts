import { describe, expect, it } from 'vitest';
import { csvRecords, resultToCsv } from '../src/csv';
import { resolveOptions } from '../src/options';
import { nothingMeasuredMessage } from '../src/phases/direction-failure';
import { buildResult } from '../src/result';
import type { DirectionFailure } from '../src/types';
import { measuredDownload as download } from './bandwidth-sample';
import { pingSample as ping } from './ping-sample';

const uploadBlocked: DirectionFailure = {
  reason: 'no-data',
  message: 'the server received no data in 4.0 s (upload)',
  bytes: 0,
  durationMs: 4012,
};
const downloadBroken: DirectionFailure = {
  reason: 'error',
  message: '503 from https://speed.example/__down',
  bytes: 120_000,
  durationMs: 800,
};

describe('nothingMeasuredMessage', () => {
  const both = ['download', 'upload'] as const;

  it('lets the run go on while one requested direction has a figure or is still to come', () => {
    expect(nothingMeasuredMessage(both, { download: downloadBroken, upload: null })).toBeNull();
    expect(nothingMeasuredMessage(both, { download: null, upload: uploadBlocked })).toBeNull();
  });

  it("fails a run of one direction with that direction's own message", () => {
    expect(nothingMeasuredMessage(['upload'], { download: null, upload: uploadBlocked })).toBe(uploadBlocked.message);
  });

  it('names both failures, download first, when neither direction was measured', () => {
    expect(nothingMeasuredMessage(both, { download: downloadBroken, upload: uploadBlocked })).toBe(
      '503 from https://speed.example/__down; the server received no data in 4.0 s (upload)',
    );
  });

  it('never fails a run that asked for no direction (latency only)', () => {
    expect(nothingMeasuredMessage([], { download: null, upload: null })).toBeNull();
  });
});

const withoutUpload = buildResult({
  startedAt: '2026-11-29T00:00:00.000Z',
  durationMs: 9000,
  idlePings: [ping(0, 10), ping(20, 12), ping(40, 11)],
  downloadLoadedPings: [ping(150, 30, 'download')],
  uploadLoadedPings: [],
  download,
  upload: null,
  directionFailures: { download: null, upload: uploadBlocked },
  loss: null,
  lossNote: 'no TURN server is configured, so the packet-loss test is unavailable',
  samples: [ping(0, 10), ping(20, 12), ping(40, 11), ping(150, 30, 'download')],
  intervals: [],
  totalBytes: { download: 4_000_000, upload: 300_000 },
  options: resolveOptions({}),
});

describe('a result whose upload failed', () => {
  it('is a finished run, not a partial one: the download and latency are its figures', () => {
    expect(withoutUpload.partial).toBeNull();
    expect(withoutUpload.download?.bitsPerSecond.value).toBe(95e6);
    expect(withoutUpload.directionFailures).toEqual({ download: null, upload: uploadBlocked });
  });

  it('leaves video calls, which need the upload, not measured, and still classes streaming', () => {
    expect(withoutUpload.quality.videoCalls).toBe('not-measured');
    expect(withoutUpload.quality.streaming).toBe('great');
  });

  it('writes an upload summary row with no value and the failure as its basis', () => {
    const upload = csvRecords(resultToCsv(withoutUpload)).find((row) => row.metric === 'upload');
    expect(upload).toMatchObject({
      record: 'summary',
      value: '',
      unit: 'bit/s',
      basis: 'failed (no-data): the server received no data in 4.0 s (upload); no rate (0 bytes in 4012 ms)',
    });
  });

  it('says no direction failed in a result built without failures', () => {
    const clean = buildResult({ ...withoutUploadParts(), directionFailures: undefined });
    expect(clean.directionFailures).toEqual({ download: null, upload: null });
    expect(csvRecords(resultToCsv(clean)).some((row) => row.metric === 'upload')).toBe(false);
  });
});

function withoutUploadParts() {
  return {
    startedAt: withoutUpload.startedAt,
    durationMs: withoutUpload.durationMs,
    idlePings: [ping(0, 10)],
    downloadLoadedPings: [],
    uploadLoadedPings: [],
    download,
    upload: null,
    loss: null,
    lossNote: null,
    samples: [ping(0, 10)],
    intervals: [],
    totalBytes: { download: 1, upload: 0 },
    options: resolveOptions({}),
  };
}
