import { describe, expect, it } from 'vitest';
import { csvColumns, samplesToCsv } from '../src/csv';
import { classify } from '../src/stats/quality';
import { bitsPerSecond, downloadDurationMs, parseServerTimingMs, requestTiming, uploadDurationMs } from '../src/timing';
import type { RequestSample } from '../src/types';

describe('parseServerTimingMs', () => {
  it('reads cfRequestDuration', () => {
    expect(parseServerTimingMs('cfRequestDuration;dur=12.5')).toBe(12.5);
  });

  it('finds it among other metrics and abbreviations', () => {
    expect(parseServerTimingMs('cache;desc=hit, cfReqDur;dur=3')).toBe(3);
  });

  it('returns null for a missing or malformed header', () => {
    expect(parseServerTimingMs(null)).toBeNull();
    expect(parseServerTimingMs('cfRequestDuration')).toBeNull();
    expect(parseServerTimingMs('total;dur=5')).toBeNull();
  });
});

const entry = { requestStart: 100, responseStart: 130, responseEnd: 230 };
const clock = { startMs: 90, headersMs: 135, endMs: 240 };

describe('requestTiming', () => {
  it('takes TTFB and payload time from the resource-timing entry and subtracts server time for the ping', () => {
    expect(requestTiming(entry, clock, 5)).toEqual({
      ttfbMs: 30,
      pingMs: 25,
      payloadMs: 100,
      source: 'resource-timing',
    });
  });

  it('falls back to its own clock when the entry is missing, instead of crashing', () => {
    expect(requestTiming(undefined, clock, null)).toEqual({ ttfbMs: 45, pingMs: 45, payloadMs: 105, source: 'clock' });
  });

  it('falls back when the entry is zeroed (no Timing-Allow-Origin)', () => {
    const zeroed = { requestStart: 0, responseStart: 0, responseEnd: 0 };
    expect(requestTiming(zeroed, clock, null).source).toBe('clock');
  });

  it('never reports a negative ping when the server time exceeds the TTFB', () => {
    expect(requestTiming(entry, clock, 50).pingMs).toBe(0);
  });
});

describe('durations and rates', () => {
  const timing = { ttfbMs: 30, pingMs: 25, payloadMs: 100, source: 'clock' as const };

  it('counts a download as ping plus payload time, like the anchor', () => {
    expect(downloadDurationMs(timing)).toBe(125);
  });

  it('takes the idle round trip out of an upload TTFB (the anchor counts it as transfer time)', () => {
    expect(uploadDurationMs({ ...timing, ttfbMs: 520 }, 20)).toBe(500);
    expect(uploadDurationMs({ ...timing, ttfbMs: 10 }, 20)).toBe(1);
  });

  it('computes bits per second and refuses durations under the minimum', () => {
    expect(bitsPerSecond(1_000_000, 800)).toBe(10_000_000);
    expect(bitsPerSecond(1_000_000, 5, 10)).toBeNull();
  });
});

describe('classify', () => {
  it('rates a fast, low-latency link great everywhere', () => {
    const input = {
      downloadBitsPerSecond: 100e6,
      uploadBitsPerSecond: 20e6,
      idleLatencyMs: 10,
      jitterMs: 1,
      loadedLatencyMs: 30,
    };
    expect(classify(input)).toEqual({ streaming: 'great', gaming: 'great', videoCalls: 'great' });
  });

  it('lets bufferbloat cost gaming even on a fast link', () => {
    const input = {
      downloadBitsPerSecond: 100e6,
      uploadBitsPerSecond: 20e6,
      idleLatencyMs: 10,
      jitterMs: 1,
      loadedLatencyMs: 350,
    };
    expect(classify(input).gaming).toBe('poor');
  });

  it('calls an experience not measured when a figure it needs was not measured, instead of bad', () => {
    const input = {
      downloadBitsPerSecond: 100e6,
      uploadBitsPerSecond: null,
      idleLatencyMs: 10,
      jitterMs: 1,
      loadedLatencyMs: 30,
    };
    expect(classify(input)).toEqual({ streaming: 'great', gaming: 'great', videoCalls: 'not-measured' });
  });

  it('classes an upload-only run on what it measured and leaves download-bound experiences not measured', () => {
    const input = {
      downloadBitsPerSecond: null,
      uploadBitsPerSecond: 20e6,
      idleLatencyMs: 10,
      jitterMs: 1,
      loadedLatencyMs: 30,
    };
    expect(classify(input)).toEqual({ streaming: 'not-measured', gaming: 'great', videoCalls: 'not-measured' });
  });

  it('still rates a measured but slow link bad', () => {
    const input = {
      downloadBitsPerSecond: 0.1e6,
      uploadBitsPerSecond: 0.1e6,
      idleLatencyMs: 10,
      jitterMs: 1,
      loadedLatencyMs: 30,
    };
    expect(classify(input).videoCalls).toBe('bad');
  });
});

const sample: RequestSample = {
  kind: 'download',
  bytes: 100000,
  receivedBytes: 100000,
  startMs: 12.3456,
  durationMs: 8,
  bitsPerSecond: 100_000_000,
  ttfbMs: 2.5,
  serverMs: null,
  pingMs: 2.5,
  parallelStreams: 2,
  load: 'download',
  timingSource: 'resource-timing',
};

describe('samplesToCsv', () => {
  it('writes a header and one row per sample, empty cells for unknowns', () => {
    const lines = samplesToCsv([sample]).trimEnd().split('\r\n');
    expect(lines[0]).toBe(csvColumns.join(','));
    expect(lines[1]).toBe(
      'transfer,download,download,100000,100000,12.346,8,100000000,2.500,,2.500,2,resource-timing,,,,,,,,,',
    );
  });

  it('leaves the direction of a ping row empty: a ping is a round trip, not a direction', () => {
    const ping: RequestSample = { ...sample, kind: 'latency', load: 'idle', bytes: 0, bitsPerSecond: null };
    const cells = (samplesToCsv([ping]).split('\r\n')[1] ?? '').split(',');
    expect(cells[csvColumns.indexOf('record')]).toBe('ping');
    expect(cells[csvColumns.indexOf('direction')]).toBe('');
    expect(cells[csvColumns.indexOf('load')]).toBe('idle');
  });

  it('has as many cells in every row as there are columns', () => {
    const rows = samplesToCsv([sample, { ...sample, kind: 'latency', bitsPerSecond: null }])
      .trimEnd()
      .split('\r\n');
    for (const row of rows) expect(row.split(',')).toHaveLength(csvColumns.length);
  });
});
