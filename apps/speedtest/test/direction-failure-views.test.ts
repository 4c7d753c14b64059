import { buildResult, type DirectionFailure, resolveOptions, type SpeedTestResult } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import {
  failedDirections,
  failureCardNote,
  failureSentence,
  finishedStatus,
  qualityUnknownBecause,
} from '../src/direction-failure';
import { historyEntry } from '../src/history';

const uploadHeld: DirectionFailure = {
  reason: 'no-data',
  message: 'the server received no data in 4.0 s (upload)',
  bytes: 0,
  durationMs: 4000,
};

/** A run whose download was measured (100 Mbit/s) and whose upload got nothing through. */
function resultWithUpload(failure: DirectionFailure | null, directions: ('download' | 'upload')[]): SpeedTestResult {
  const value = 100e6;
  return buildResult({
    startedAt: '2026-11-29T10:00:00.000Z',
    durationMs: 12_345,
    idlePings: [],
    downloadLoadedPings: [],
    uploadLoadedPings: [],
    download: {
      bitsPerSecond: { value, low: value, high: value, level: 'high', sampleCount: 4 },
      headlineBasisBitsPerSecond: [value],
      headlineSource: 'intervals',
      streams: 4,
      stopReason: 'stable',
      clientBytes: 50e6,
      serverBytes: null,
      durationMs: 4000,
    },
    upload: null,
    directionFailures: { download: null, upload: failure },
    loss: null,
    lossNote: 'turned off',
    samples: [],
    intervals: [],
    totalBytes: { download: 50e6, upload: 2e6 },
    options: resolveOptions({ directions }),
  });
}

describe('a finished run whose upload failed', () => {
  const result = resultWithUpload(uploadHeld, ['download', 'upload']);

  it('lists the failed direction with its reason', () => {
    expect(failedDirections(result)).toEqual([['upload', uploadHeld]]);
  });

  it('says in the status line what happened, what to check, and that the other figures stand', () => {
    expect(finishedStatus(result)).toBe(
      'Done in 12.3 s, 52.0 MB used. Upload failed: the server received no data in 4.0 s (upload). There is no upload figure; a proxy, firewall or browser extension may be holding uploads back. The other figures stand.',
    );
  });

  it('puts no full stop after a message that ends in a question', () => {
    const cors: DirectionFailure = { ...uploadHeld, reason: 'error', message: 'could not reach x (is CORS allowed?)?' };
    expect(failureSentence('upload', cors)).toMatch(
      /^Upload failed: could not reach x \(is CORS allowed\?\)\? There is no/,
    );
  });

  it('says a request error may be a block, not a hold', () => {
    const refused: DirectionFailure = { ...uploadHeld, reason: 'error', message: '403 from https://x/__up' };
    expect(failureSentence('upload', refused)).toContain('may be blocking uploads');
  });

  it('adds no usual suspects to a compressed download, whose message names its cause and what to change', () => {
    const compressed: DirectionFailure = {
      ...uploadHeld,
      reason: 'compressed',
      message:
        'the download from https://x/__down arrived compressed (Content-Encoding: gzip): …; turn compression off',
    };
    expect(failureSentence('download', compressed)).toBe(
      'Download failed: the download from https://x/__down arrived compressed (Content-Encoding: gzip): …; turn compression off. There is no download figure. The other figures stand.',
    );
    expect(failureCardNote(compressed)).toBe('failed: arrived compressed');
  });

  it('calls the video-call class unknown because the upload failed, and leaves streaming alone', () => {
    expect(qualityUnknownBecause(result, 'videoCalls')).toBe('upload failed');
    expect(qualityUnknownBecause(result, 'streaming')).toBeNull();
  });

  it('is kept in the history with its upload marked failed', () => {
    expect(historyEntry(result)).toMatchObject({ uploadBitsPerSecond: null, failed: ['upload'] });
  });
});

describe('a run that left the upload out', () => {
  const result = resultWithUpload(null, ['download']);

  it('keeps "not measured" for video calls: nothing failed', () => {
    expect(qualityUnknownBecause(result, 'videoCalls')).toBeNull();
    expect(finishedStatus(result)).toBe('Done in 12.3 s, 52.0 MB used.');
    expect(historyEntry(result).failed).toBeUndefined();
  });
});
