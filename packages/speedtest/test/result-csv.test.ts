import { describe, expect, it } from 'vitest';
import { csvColumns, csvRecords, headlineFlags, resultToCsv } from '../src/csv';
import { resolveOptions } from '../src/options';
import { buildResult } from '../src/result';
import { meanEstimate } from '../src/stats/confidence';
import { lossEstimate } from '../src/stats/loss';
import type { BandwidthResult, GoodputInterval, RequestSample } from '../src/types';
import { measuredDownload } from './bandwidth-sample';
import { pingSample as ping } from './ping-sample';

const interval = (startMs: number, bitsPerSecond: number, streams: number): GoodputInterval => ({
  direction: 'download',
  startMs,
  bitsPerSecond,
  streams,
});

const intervals = [interval(100, 50e6, 1), interval(200, 90e6, 1), interval(300, 100e6, 2), interval(400, 90e6, 2)];
const basis = [100e6, 90e6];
const download: BandwidthResult = {
  ...measuredDownload,
  bitsPerSecond: meanEstimate(basis),
  headlineBasisBitsPerSecond: basis,
};

const result = buildResult({
  startedAt: '2026-11-24T00:00:00.000Z',
  durationMs: 600,
  idlePings: [ping(0, 10, 'idle'), ping(20, 12, 'idle'), ping(40, 11, 'idle')],
  downloadLoadedPings: [ping(150, 30, 'download'), ping(350, 50, 'download')],
  uploadLoadedPings: [],
  download,
  upload: null,
  loss: null,
  lossNote: 'no TURN server is configured, so the packet-loss test is unavailable',
  samples: [ping(0, 10, 'idle'), ping(20, 12, 'idle'), ping(40, 11, 'idle')],
  intervals,
  totalBytes: { download: 4_100_000, upload: 0 },
  options: resolveOptions({ intervalMs: 100 }),
});

describe('headlineFlags', () => {
  it('marks the later of two equal intervals only when the first is already claimed', () => {
    expect(headlineFlags(intervals, basis)).toEqual([false, true, true, false]);
  });

  it('marks nothing for a basis that is not an interval (the phase average)', () => {
    expect(headlineFlags(intervals, [77e6])).toEqual([false, false, false, false]);
  });
});

describe('resultToCsv', () => {
  const rows = csvRecords(resultToCsv(result));

  it('has one interval row per goodput interval with its streams and duration', () => {
    const intervalRows = rows.filter((row) => row.record === 'interval');
    expect(intervalRows).toHaveLength(4);
    expect(intervalRows[2]).toMatchObject({ direction: 'download', parallel_streams: '2', duration_ms: '100' });
  });

  it("gives an interval row the interval's own length, longer than intervalMs on a long path", () => {
    const longPath = { ...result, intervals: intervals.map((entry) => ({ ...entry, durationMs: 600 })) };
    const intervalRows = csvRecords(resultToCsv(longPath)).filter((row) => row.record === 'interval');
    expect(intervalRows.map((row) => row.duration_ms)).toEqual(['600', '600', '600', '600']);
  });

  it('reproduces the download headline as the mean of the interval rows marked in_headline', () => {
    const marked = rows.filter((row) => row.record === 'interval' && row.in_headline === '1');
    const mean = marked.reduce((sum, row) => sum + Number(row.bits_per_second), 0) / marked.length;
    const summary = rows.find((row) => row.record === 'summary' && row.metric === 'download');
    expect(Number(summary?.value)).toBeCloseTo(mean, 0);
    expect(Number(summary?.low)).toBeGreaterThan(0);
    expect(summary?.sample_count).toBe('2');
  });

  it('reproduces the idle latency as the median of the idle ping rows', () => {
    const idle = rows.filter((row) => row.record === 'ping' && row.load === 'idle').map((row) => Number(row.ping_ms));
    const summary = rows.find((row) => row.metric === 'idle_latency');
    expect(Number(summary?.value)).toBe([...idle].sort((a, b) => a - b)[1]);
    expect(summary?.unit).toBe('ms');
  });

  it('marks the idle pings after the download phase, which the idle latency is the median of', () => {
    const start = [ping(0, 19, 'idle'), ping(20, 17, 'idle'), ping(40, 18, 'idle')];
    const settled = [ping(700, 10, 'idle'), ping(720, 12, 'idle'), ping(740, 11, 'idle')];
    const transfer: RequestSample = { ...ping(100, 0, 'download'), kind: 'download', bytes: 1e6 };
    const withSettled = buildResult({
      startedAt: result.startedAt,
      durationMs: 800,
      idlePings: settled,
      downloadLoadedPings: [],
      uploadLoadedPings: [],
      download,
      upload: null,
      loss: null,
      lossNote: null,
      samples: [...start, transfer, ...settled],
      intervals,
      totalBytes: result.totalBytes,
      options: result.options,
    });
    const csv = csvRecords(resultToCsv(withSettled));
    const pingRows = csv.filter((row) => row.record === 'ping');
    expect(pingRows.map((row) => row.in_headline)).toEqual(['0', '0', '0', '1', '1', '1']);
    const marked = pingRows.filter((row) => row.in_headline === '1').map((row) => row.ping_ms);
    expect(marked).toEqual(['10', '12', '11']);
    expect(csv.find((row) => row.metric === 'idle_latency')?.value).toBe('11');
  });

  it('states every figure of the page: latencies, RPM, quality and bytes', () => {
    const metrics = rows.filter((row) => row.record === 'summary').map((row) => row.metric);
    for (const metric of [
      'download',
      'jitter',
      'stalled_pings',
      'download_loaded_latency',
      'rpm',
      'quality_gaming',
      'duration_ms',
    ]) {
      expect(metrics).toContain(metric);
    }
  });

  it('has as many cells as columns in every row, quoted where a cell holds a comma', () => {
    const csv = resultToCsv(result);
    for (const row of csvRecords(csv)) expect(Object.keys(row)).toEqual([...csvColumns]);
    expect(csv.split('\r\n').some((line) => line.includes('"mean of the download interval rows'))).toBe(true);
    expect(
      csvRecords(csv).some((row) =>
        row.basis?.startsWith('mean of the download interval rows with in_headline=1 (all streams together, '),
      ),
    ).toBe(true);
  });
});

describe('an upload read behind a buffering proxy in the CSV', () => {
  it('says so in a row of its own, and only then', () => {
    const flagOf = (upload: BandwidthResult) =>
      csvRecords(resultToCsv({ ...result, upload })).find((row) => row.metric === 'upload_buffered_by_proxy');
    const measured = { ...download, serverBytes: 4_000_000 };
    expect(flagOf({ ...measured, bufferedByProxy: true })).toMatchObject({ value: '1', unit: 'flag' });
    expect(flagOf(measured)).toBeUndefined();
  });
});

describe('packet loss in the CSV', () => {
  it('says why loss is missing when no relay was configured', () => {
    const row = csvRecords(resultToCsv(result)).find((line) => line.record === 'summary' && line.metric === 'loss');
    expect(row?.value).toBe('');
    expect(row?.basis).toMatch(/no TURN server is configured/);
  });

  it('writes loss up and down with the Wilson interval and the packets sent', () => {
    const estimate = (received: number) => ({ sent: 500, received, ...lossFigures(500, received) });
    const lossFigures = (sent: number, received: number) => {
      const { lossPct, lowPct, highPct } = lossEstimate(
        sent,
        Array.from({ length: received }, (_, index) => index),
      );
      return { lossPct, lowPct, highPct };
    };
    const measured = {
      ...result,
      loss: {
        up: estimate(490),
        down: estimate(500),
        relay: 'turn:127.0.0.1:3478?transport=udp',
        relayProtocols: { udpPeer: 'udp', tcpPeer: 'tcp' },
        durationMs: 5000,
      },
      lossNote: null,
    };
    const rows = csvRecords(resultToCsv(measured));
    const up = rows.find((row) => row.metric === 'loss_up');
    const down = rows.find((row) => row.metric === 'loss_down');
    expect(Number(up?.value)).toBeCloseTo(2, 6);
    expect(up).toMatchObject({ unit: '%', sample_count: '500', confidence: 'wilson-95' });
    expect(Number(up?.low)).toBeLessThan(2);
    expect(Number(up?.high)).toBeGreaterThan(2);
    expect(up?.basis).toMatch(/10 of 500 .* client -> TURN relay/);
    expect(Number(down?.value)).toBe(0);
    expect(rows.some((row) => row.metric === 'loss')).toBe(false);
  });
});
