import { buildResult, resolveOptions, type SpeedTestResult } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { baselineNotice, comparisonRows, measurementBytes } from '../src/comparison';
import { explainFailure } from '../src/failure';
import { historyEntry } from '../src/history';
import { dataNoticeAfterRun, dataNoticeWhileRunning } from '../src/notice';
import { failedPartialNote, stoppedStatus } from '../src/outcome';
import { numberParams, pageOptions, parseBoolean, parseNumberParam } from '../src/query';

describe('pageOptions', () => {
  it('names a malformed byte budget and runs with the default instead', () => {
    const options = pageOptions('?bytes=10MB');
    expect(options.engine.maxBytesPerDirection).toBeUndefined();
    expect(options.problems).toEqual(['bytes=10MB is not a number: used the default, 300000000 bytes.']);
  });

  it('raises a zero time budget to the minimum and says so', () => {
    const options = pageOptions('?timeMs=0');
    expect(options.engine.maxDurationPerDirectionMs).toBe(1000);
    expect(options.problems).toEqual(['timeMs=0 is below the minimum of 1000 ms: used 1000 ms.']);
  });

  it('rejects a zero byte budget (it made the progress bar throw)', () => {
    expect(pageOptions('?bytes=0').engine.maxBytesPerDirection).toBe(100_000);
    // Past what a browser timer holds the engine would refuse the option: clamped, with a notice.
    const long = pageOptions('?timeMs=1e10');
    expect(long.engine.maxDurationPerDirectionMs).toBe(2 ** 31 - 1);
    expect(long.problems[0]).toContain('above the maximum');
    expect(pageOptions('?bytes=0').problems[0]).toMatch(/^bytes=0 is below the minimum/);
  });

  it('takes at least two idle pings, the fewest a jitter needs', () => {
    const options = pageOptions('?pings=0');
    expect(options.engine.idlePings).toBe(2);
    expect(options.problems).toHaveLength(1);
  });

  it('rounds a count that is not whole and says so', () => {
    expect(pageOptions('?streams=2.5').engine.maxStreams).toBe(3);
    expect(pageOptions('?streams=2.5').problems).toEqual(['streams=2.5 is not a whole number: used 3 streams.']);
  });

  it('accepts valid values without a word', () => {
    const options = pageOptions('?bytes=40000000&timeMs=2500&intervalMs=100&pings=10&directions=download');
    expect(options.problems).toEqual([]);
    expect(options.engine).toMatchObject({ maxBytesPerDirection: 40_000_000, idlePings: 10, directions: ['download'] });
  });

  it('reads autostart as a boolean in any of its usual spellings', () => {
    for (const off of ['0', 'false', 'no', 'No']) expect(pageOptions(`?autostart=${off}`).autostart).toBe(false);
    for (const on of ['1', 'true', 'yes']) expect(pageOptions(`?autostart=${on}`).autostart).toBe(true);
    expect(pageOptions('').autostart).toBe(true);
  });

  it('names an autostart value it cannot read and starts as by default', () => {
    const options = pageOptions('?autostart=maybe');
    expect(options.autostart).toBe(true);
    expect(options.problems[0]).toMatch(/^autostart=maybe is not one of 0, 1, true, false, yes, no/);
  });

  it('names unknown directions, transports, hidden values and servers', () => {
    const options = pageOptions('?directions=down&upload=udp&hidden=yes&server=ftp://x');
    expect(options.engine.directions).toBeUndefined();
    expect(options.problems).toHaveLength(4);
    expect(pageOptions('?directions=upload,sideways').engine.directions).toEqual(['upload']);
  });
});

describe('parseBoolean and parseNumberParam', () => {
  it('returns null for anything that is not a boolean word', () => {
    expect(parseBoolean('2')).toBeNull();
    expect(parseBoolean(null)).toBeNull();
  });

  it('caps a value above the maximum', () => {
    const { value, problem } = parseNumberParam('streams', '99', numberParams.streams as never);
    expect(value).toBe(16);
    expect(problem).toBe('streams=99 is above the maximum of 16 streams: used 16 streams.');
  });
});

describe('the notice once a run has ended', () => {
  const options = resolveOptions({ packetLoss: false });

  it('points at the button as it now reads, not "Start test" or "Stop"', () => {
    expect(dataNoticeAfterRun(options)).toBe(
      'Another run uses up to 600.0 MB (300.0 MB per direction, 12 s at most each, up to 60 s where a round trip takes over 400 ms). Press Start again when you are ready.',
    );
  });

  it('while a run started by hand goes on, says Stop ends it', () => {
    expect(dataNoticeWhileRunning(options)).toMatch(/Press Stop at any time\.$/);
  });
});

const partial = (missing: NonNullable<SpeedTestResult['partial']>['missing']) =>
  buildResult({
    startedAt: '2026-11-28T00:00:00.000Z',
    durationMs: 5000,
    idlePings: [],
    downloadLoadedPings: [],
    uploadLoadedPings: [],
    download: null,
    upload: null,
    loss: null,
    lossNote: 'the run ended before it was measured',
    samples: [],
    intervals: [],
    totalBytes: { download: 1000, upload: 0 },
    options: resolveOptions({}),
    partial: { reason: 'stopped', message: null, missing },
  });

describe('stoppedStatus', () => {
  it('names what a partial result lacks and mentions crossed-out figures only when there are some', () => {
    expect(stoppedStatus(partial(['loss']), 0)).toBe(
      'Stopped: the finished phases are a partial result (not measured: packet loss).',
    );
    expect(stoppedStatus(partial(['upload', 'loss']), 1)).toBe(
      'Stopped: the finished phases are a partial result (not measured: upload and packet loss). Crossed-out figures are not results.',
    );
  });

  it('says nothing was final when Stop came before any phase finished', () => {
    expect(stoppedStatus(null, 1)).toBe('Stopped before any figure was final. Crossed-out figures are not results.');
  });

  it('adds the kept phases to a failure', () => {
    expect(failedPartialNote(partial(['upload', 'loss']))).toContain('kept as a partial result');
    expect(failedPartialNote(null)).toBe('');
  });
});

describe('historyEntry', () => {
  it('marks a partial run', () => {
    expect(historyEntry(partial(['loss'])).partial).toBe(true);
  });
});

describe('explainFailure for a transfer that moved nothing', () => {
  it('says no rate can be reported, not that the link is slow', () => {
    const text = explainFailure('the server sent no data in 4.0 s (download)', 'download', '', 'http://x');
    expect(text).toContain('no bytes moved, so there is no rate to report');
    expect(text).toContain('(Browser said: the server sent no data in 4.0 s (download))');
  });
});

describe('the comparison page', () => {
  const baseline = { summary: { download: 9.5e6 }, wallMs: 700, bytes: { download: 3.3e6, upload: 3.3e6 } };

  it("compares the durations without speedkit's packet-loss step, and shows that step apart", () => {
    const ours = {
      download: null,
      upload: null,
      latency: { idleMs: { value: 1 }, jitterMs: 0, downloadLoadedMs: null, uploadLoadedMs: null },
      totalBytes: { download: 0, upload: 0 },
      durationMs: 17_400,
      loss: { durationMs: 15_000 },
    } as unknown as SpeedTestResult;
    const rows = comparisonRows(baseline, ours);
    expect(rows.find((row) => row.key === 'duration')).toMatchObject({ baseline: '0.7 s', ours: '2.4 s' });
    expect(rows.find((row) => row.key === 'lossDuration')).toMatchObject({ baseline: 'not run', ours: '15.0 s' });
  });

  it('counts what a measurement list requests', () => {
    const list = [
      { type: 'latency', numPackets: 5 },
      { type: 'download', bytes: 1e5, count: 3 },
      { type: 'upload', bytes: 1e6, count: 3 },
    ];
    expect(measurementBytes(list)).toEqual({ download: 300_000, upload: 3_000_000 });
  });

  it('states the bytes of the preset and budget chosen, not "over 1 GB"', () => {
    const notice = baselineNotice(
      [{ type: 'download', bytes: 1e6, count: 3 }],
      resolveOptions({ maxBytesPerDirection: 100_000_000, packetLoss: false }),
      true,
    );
    expect(notice).toBe(
      'Both tests start by themselves, one after the other: @cloudflare/speedtest requests up to 3.0 MB (3.0 MB down, 0 kB up); then speedkit uses up to 200.0 MB (100.0 MB per direction).',
    );
  });
});
