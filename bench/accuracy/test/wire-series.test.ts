import { describe, expect, it } from 'vitest';
import { downloadWindow, parseWire, receivePathBacklog, shaperBacklog, valueAt, wireRateBps } from '../wire-series.mjs';

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
