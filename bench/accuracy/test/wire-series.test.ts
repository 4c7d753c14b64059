import { describe, expect, it } from 'vitest';
import {
  bytesByPhase,
  downloadWindow,
  figureWindow,
  parseWire,
  phaseSpans,
  receivePathBacklog,
  routerTxBytes,
  shaperBacklog,
  thinSeries,
  valueAt,
  windowOnWire,
  wireRateBps,
} from '../wire-series.mjs';

const tcLine = (sent: number, dropped: number, backlog: number) =>
  `qdisc tbf 829f: root refcnt 3 rate 100Mbit burst 12800b lat 400ms Sent ${sent} bytes 9 pkt (dropped ${dropped}, overlimits 0 requeues 0) backlog ${backlog}b 3p requeues 0`;

describe('parseWire', () => {
  it('reads the device counter and the shaper polls, skipping lines it does not know', () => {
    const text = ['dev\t1000\t500', `tbf\t1010\t${tcLine(400, 2, 3028)}`, 'dev\t1020\tnot-a-number', 'junk', ''].join(
      '\n',
    );
    expect(parseWire(text)).toEqual({
      dev: [[1000, 500]],
      tbf: [{ ms: 1010, sentBytes: 400, dropped: 2, backlogBytes: 3028 }],
    });
  });
});

describe('valueAt and wireRateBps', () => {
  // 1514 bytes per ms on the wire: 12.112 Mbit/s of frames, 11.584 Mbit/s of payload.
  const dev: [number, number][] = [
    [0, 0],
    [10, 15_140],
    [20, 30_280],
  ];

  it('interpolates between polls and is NaN outside them', () => {
    expect(valueAt(dev, 15)).toBe(22_710);
    expect(valueAt(dev, -1)).toBeNaN();
    expect(valueAt(dev, 21)).toBeNaN();
  });

  it('counts payload: 1448 of every 1514 bytes the shaper sent', () => {
    expect(wireRateBps(dev, 0, 20)).toBeCloseTo(1448 * 8 * 1000, 6);
  });
});

describe('downloadWindow', () => {
  const intervals = [10, 20, 30, 40, 50].map((mbit, index) => ({
    direction: 'download',
    startMs: 1000 + index * 250,
    bitsPerSecond: mbit * 1e6,
    streams: index >= 3 ? 2 : 1,
  }));
  const raw = {
    intervals: [...intervals, { direction: 'upload', startMs: 9000, bitsPerSecond: 5e6, streams: 1 }],
    download: { headlineSource: 'intervals', headlineBasisBitsPerSecond: [30e6, 40e6] },
  };

  it("finds the figure's basis among the download intervals", () => {
    expect(downloadWindow(raw)).toMatchObject({ intervalMs: 250, start: 2, end: 4 });
  });

  it('is null for a phase-average figure or a basis that is not a run of intervals', () => {
    expect(downloadWindow({ ...raw, download: { ...raw.download, headlineSource: 'phase-average' } })).toBeNull();
    expect(
      downloadWindow({ ...raw, download: { ...raw.download, headlineBasisBitsPerSecond: [20e6, 40e6] } }),
    ).toBeNull();
  });
});

describe('figureWindow and windowOnWire', () => {
  // Upload intervals of 250 ms from 1000 ms on the page clock; the figure is intervals 1-2 (6 and 8 Mbit/s).
  const raw = {
    startedAt: new Date(50_000).toISOString(),
    intervals: [4, 6, 8, 9].map((mbit, index) => ({
      direction: 'upload',
      startMs: 1000 + index * 250,
      bitsPerSecond: mbit * 1e6,
      streams: 1,
    })),
    upload: { headlineSource: 'intervals', headlineBasisBitsPerSecond: [6e6, 8e6] },
  };

  it("finds an upload figure's window as it does a download's", () => {
    expect(figureWindow(raw, 'upload')).toMatchObject({ intervalMs: 250, start: 1, end: 3 });
    expect(figureWindow(raw, 'download')).toBeNull();
    expect(figureWindow(undefined, 'upload')).toBeNull();
  });

  it('sets the wire over the window on the epoch beside the mean the page read there', () => {
    // The window is epoch 51 250 to 51 750 ms; the wire sends 1514 bytes per ms (11.584 Mbit/s of payload).
    const dev: [number, number][] = [
      [51_000, 0],
      [52_000, 1_514_000],
    ];
    const measured = windowOnWire(raw, 'upload', dev);
    expect(measured?.wireBps).toBeCloseTo(1448 * 8 * 1000, 3);
    expect(measured?.pageBps).toBe(7e6);
    expect(measured?.windowMs).toBe(500);
  });

  it('is null when the series does not cover the window or the result has none', () => {
    expect(windowOnWire(raw, 'upload', [[51_500, 0]])).toBeNull();
    expect(windowOnWire(raw, 'download', [[0, 0]])).toBeNull();
    expect(windowOnWire({ ...raw, startedAt: 'not a date' }, 'upload', [])).toBeNull();
  });
});

describe('routerTxBytes', () => {
  it("reads the transmitted bytes of the router's client-side and server-side devices", () => {
    const text = [
      'Inter-|   Receive                                                |  Transmit',
      ' face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed',
      '    lo:       0       0    0    0    0     0          0         0        0       0    0    0    0     0       0          0',
      'skacc-rc: 1000 10 0 0 0 0 0 0 987654 900 0 0 0 0 0 0',
      'skacc-rs: 2000 20 0 0 0 0 0 0 123456 100 0 0 0 0 0 0',
      'skacc-t: 5 1 0 0 0 0 0 0 7 1 0 0 0 0 0 0',
    ].join('\n');
    expect(routerTxBytes(text)).toEqual({ down: 987_654, up: 123_456 });
  });

  it('is NaN for a device the namespace does not list', () => {
    expect(routerTxBytes('    lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0')).toEqual({ down: Number.NaN, up: Number.NaN });
  });
});

describe('receivePathBacklog and shaperBacklog', () => {
  it('is the payload the wire carried less what the page read, at each interval end', () => {
    // The wire carries 1448 payload bytes per ms from the epoch 5000 on; the page reads the first interval at half
    // that rate and the second at the full rate: 181 000 bytes stay behind after the first interval and after both.
    const dev: [number, number][] = [
      [5000, 0],
      [5500, 500 * 1514],
    ];
    const rate = 1448 * 8 * 1000;
    const intervals = [
      { startMs: 0, bitsPerSecond: rate / 2 },
      { startMs: 250, bitsPerSecond: rate },
    ];
    const backlog = receivePathBacklog(dev, intervals, 5000, 250);
    expect(backlog[0]).toBeCloseTo(181_000, 6);
    expect(backlog[1]).toBeCloseTo(181_000, 6);
  });

  it("averages the shaper's polls per interval; NaN without one", () => {
    const polls = [
      { ms: 5010, backlogBytes: 100 },
      { ms: 5200, backlogBytes: 300 },
      { ms: 5260, backlogBytes: 50 },
    ];
    expect(shaperBacklog(polls, [{ startMs: 0 }, { startMs: 250 }, { startMs: 500 }], 5000, 250)).toEqual([
      200,
      50,
      Number.NaN,
    ]);
  });
});

describe('thinSeries', () => {
  it('keeps a poll every interval and always the last one', () => {
    const series: [number, number][] = [
      [0, 0],
      [10, 1],
      [50, 2],
      [60, 3],
      [105, 4],
      [110, 5],
    ];
    expect(thinSeries(series, 50)).toEqual([
      [0, 0],
      [50, 2],
      [105, 4],
      [110, 5],
    ]);
    expect(thinSeries([], 50)).toEqual([]);
  });
});

describe('phaseSpans and bytesByPhase', () => {
  const sample = (load: string, startMs: number, durationMs: number) => ({ load, startMs, durationMs });
  const raw = {
    startedAt: new Date(1_000_000).toISOString(),
    durationMs: 10_000,
    samples: [
      sample('idle', 100, 50),
      sample('download', 1_000, 3_000),
      sample('download', 1_200, 2_900),
      sample('idle', 4_200, 50),
      sample('upload', 5_000, 2_000),
      sample('upload', 5_500, 1_000),
    ],
  };

  it('splits a run into its idle start, directions, settled pings and what follows the upload', () => {
    expect(phaseSpans(raw)).toEqual([
      { phase: 'idle pings', fromMs: 0, toMs: 1_000 },
      { phase: 'download', fromMs: 1_000, toMs: 4_100 },
      { phase: 'settled pings', fromMs: 4_100, toMs: 5_000 },
      { phase: 'upload', fromMs: 5_000, toMs: 7_000 },
      { phase: 'drain and loss', fromMs: 7_000, toMs: 10_000 },
    ]);
  });

  it('leaves out a direction that has no samples', () => {
    const downloadOnly = { ...raw, samples: raw.samples.filter((s) => s.load !== 'upload') };
    expect(phaseSpans(downloadOnly).map((span) => span.phase)).toEqual(['idle pings', 'download', 'rest']);
  });

  it("counts each phase's bytes each way on the result's clock, NaN where the series stops", () => {
    // 1 byte per ms towards the client, 2 towards the server, from the origin to 8 s after it.
    const down: [number, number][] = [
      [1_000_000, 0],
      [1_008_000, 8_000],
    ];
    const up: [number, number][] = [
      [1_000_000, 0],
      [1_008_000, 16_000],
    ];
    const phases = bytesByPhase(raw, { down, up });
    expect(phases[1]).toMatchObject({ phase: 'download', downBytes: 3_100, upBytes: 6_200 });
    expect(phases[4].downBytes).toBeNaN();
  });
});
