import { describe, expect, it } from 'vitest';
import { GoodputMeter } from '../src/stats/goodput';
import {
  bufferedCopyVerdict,
  readsBufferedCopies,
  resumeSettleMs,
  uploadGaps,
  uploadSpans,
} from '../src/stats/upload-spans';

const base = { requestStartMs: 1000, responseStartMs: 2100, idleRttMs: 80, bytes: 1000 };

describe('uploadSpans', () => {
  it('spreads the bytes from the request start to one idle round trip before the response without a timeline', () => {
    expect(uploadSpans(base)).toEqual({ spans: [{ startMs: 1000, endMs: 2020, bytes: 1000 }], fromServer: false });
  });

  it('places each stretch the server read at its time, anchored half a round trip before the response', () => {
    // The server answered at 1000 ms of its clock; the response began at 2100 ms, so 1000 ms there is 2060 ms here.
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [500, 600],
        [1000, 1000],
      ],
      serverEndMs: 1000,
    });
    expect(spans).toEqual({
      spans: [
        { startMs: 1060, endMs: 1560, bytes: 600 },
        { startMs: 1560, endMs: 2060, bytes: 400 },
      ],
      fromServer: true,
      receiveStartMs: 1060,
      firstReadMs: 1560,
      receiveEndMs: 2060,
      stall: null,
    });
  });

  it('reports a stall from a stretch with nothing read longer than stallMs to the last read, on the client clock', () => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [100, 500],
        [800, 900],
        [1000, 1000],
      ],
      serverEndMs: 1000,
      stallMs: 600,
    });
    expect(spans.fromServer && spans.stall).toEqual({ startMs: 1160, endMs: 2060 });
  });

  it('keeps the bytes a loss held back, read in bursts after a stall, inside the stall', () => {
    // Recorded on 5/1 Mbit/s, 200 ms, 2 % loss (server clock, ms): one 1448-byte segment per 12 ms read, then 636 ms
    // with nothing read, then what the receiver had queued meanwhile, released over several reads as the
    // retransmissions arrived. The stall ends at the last read, not at the first read after the hole.
    const receiveTimeline: [number, number][] = [
      [0, 0],
      [137, 20272],
      [149, 21720],
      [785, 81088],
      [1198, 86880],
      [1273, 110048],
      [1321, 141904],
      [1357, 164155],
    ];
    const spans = uploadSpans({
      requestStartMs: 0,
      responseStartMs: 1500,
      idleRttMs: 200,
      bytes: 164155,
      receiveTimeline,
      serverEndMs: 1357,
      stallMs: 600,
    });
    // Anchored at 1500 - 100 ms: server 0 ms is 43 ms here.
    expect(spans.fromServer && spans.stall).toEqual({ startMs: 192, endMs: 1400 });
  });

  it('reports no stall when every stretch is within stallMs', () => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [100, 500],
        [800, 900],
        [1000, 1000],
      ],
      serverEndMs: 1000,
      stallMs: 700,
    });
    expect(spans.fromServer && spans.stall).toBeNull();
  });

  it('reports no stall without a threshold', () => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [100, 500],
        [900, 1000],
      ],
      serverEndMs: 1000,
    });
    expect(spans.fromServer && spans.stall).toBeNull();
  });

  it('leaves a stall the server saw empty instead of spreading bytes over it', () => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [100, 500],
        [800, 500],
        [1000, 1000],
      ],
      serverEndMs: 1000,
    });
    expect(spans.spans.map((span) => [span.startMs, span.endMs])).toEqual([
      [1060, 1160],
      [1860, 2060],
    ]);
  });

  it('keeps every stretch between the request start and the response start', () => {
    // Anchored at 2060 ms, 0 ms of the server's clock would be 60 ms here (before the request) and 3000 ms would be
    // 5060 ms (after the answer): both are held at the request's edges.
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [1000, 500],
        [3000, 1000],
      ],
      serverEndMs: 2000,
    });
    expect(spans).toMatchObject({
      spans: [
        { startMs: 1000, endMs: 1060, bytes: 500 },
        { startMs: 1060, endMs: 2100, bytes: 500 },
      ],
      receiveStartMs: 1000,
      firstReadMs: 1060,
      receiveEndMs: 2100,
    });
  });

  it.each([
    [
      'does not add up to the bytes sent',
      [
        [0, 0],
        [10, 999],
      ],
      10,
    ],
    [
      'runs backwards in time',
      [
        [0, 0],
        [10, 500],
        [5, 1000],
      ],
      10,
    ],
    [
      'loses bytes',
      [
        [0, 0],
        [10, 1200],
        [20, 1000],
      ],
      20,
    ],
    ['has one point', [[0, 0]], 10],
    ['has a malformed point', [[0, 0], [10]], 10],
  ])('falls back to the request span when the timeline %s', (_, receiveTimeline, serverEndMs) => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: receiveTimeline as [number, number][],
      serverEndMs,
    });
    expect(spans).toEqual({ spans: [{ startMs: 1000, endMs: 2020, bytes: 1000 }], fromServer: false });
  });

  it('falls back when the server did not say when it answered', () => {
    const spans = uploadSpans({
      ...base,
      receiveTimeline: [
        [0, 0],
        [10, 1000],
      ],
      serverEndMs: null,
    });
    expect(spans).toEqual({ spans: [{ startMs: 1000, endMs: 2020, bytes: 1000 }], fromServer: false });
  });
});

/** The meter's closed intervals up to `untilMs`, each weighed by its busy time, as a phase's figure weighs them. */
function busyWeightedBitsPerSecond(meter: GoodputMeter, untilMs: number): number {
  const rates = meter.closedIntervals(untilMs);
  const busyMs = meter.closedBusyMs(untilMs);
  const bits = rates.reduce((sum, rate, index) => sum + rate * (busyMs[index] ?? 0), 0);
  return bits / busyMs.reduce((sum, ms) => sum + ms, 0);
}

describe('uploadSpans with uploadGaps in a goodput meter', () => {
  /**
   * One upload on a link that carries a 1448-byte segment every 12 ms throughout (0.965 Mbit/s): the server reads each
   * segment as it arrives, except that a loss at 300 ms holds everything back for 600 ms, released in three reads as
   * the retransmissions arrive (server clock, ms).
   */
  function heldBackTimeline(): [number, number][] {
    const segmentBytes = 1448;
    const points: [number, number][] = [[0, 0]];
    for (let ms = 12; ms <= 300; ms += 12) points.push([ms, (ms / 12) * segmentBytes]);
    const arrivedBy = (ms: number) => Math.floor(ms / 12) * segmentBytes;
    points.push([900, arrivedBy(700)], [960, arrivedBy(840)], [1000, arrivedBy(1000)]);
    for (let ms = 1008; ms <= 1500; ms += 12) points.push([ms, arrivedBy(ms)]);
    return points;
  }

  it('does not read above the link when a stall releases its bytes over several reads', () => {
    const receiveTimeline = heldBackTimeline();
    const bytes = (receiveTimeline.at(-1) as [number, number])[1];
    const placement = uploadSpans({
      requestStartMs: 0,
      responseStartMs: 1600,
      idleRttMs: 200,
      bytes,
      receiveTimeline,
      serverEndMs: 1500,
      stallMs: 500,
    });
    const meter = new GoodputMeter(0, 500);
    meter.addSpans(placement.spans);
    for (const gap of uploadGaps(placement, null)) meter.addGap(gap.startMs, gap.endMs);
    // Up to the last read, as the phase closes its intervals (after it only the idle tail of the phase).
    const bitsPerSecond = busyWeightedBitsPerSecond(meter, meter.lastEndMs);
    // Leaving out the stall's 600 ms alone, with two of the three releases after it, read 1.18 Mbit/s (+23 %).
    expect(bitsPerSecond / ((1448 * 8) / 0.012)).toBeCloseTo(1, 1);
  });
});

describe('uploadGaps', () => {
  const placement = {
    spans: [{ startMs: 1100, endMs: 2000, bytes: 1000 }],
    fromServer: true as const,
    receiveStartMs: 1100,
    firstReadMs: 1120,
    receiveEndMs: 2000,
    stall: { startMs: 1500, endMs: 2000 },
  };

  it('gives the idle round trip since the previous upload up to just past its first read, and its stall', () => {
    expect(resumeSettleMs).toBe(5);
    expect(uploadGaps(placement, 1000)).toEqual([
      { startMs: 1000, endMs: 1125 },
      { startMs: 1500, endMs: 2000 },
    ]);
  });

  it("leaves out a stream's first upload up to its first read: those bytes arrived before the handler started", () => {
    expect(uploadGaps({ ...placement, stall: null }, null)).toEqual([{ startMs: 1100, endMs: 1125 }]);
  });

  it('gives nothing for a stream the server gave no read times for', () => {
    expect(uploadGaps({ spans: [], fromServer: false }, 1000)).toEqual([]);
  });

  it('still leaves out the settling time when the next upload was read at once', () => {
    expect(uploadGaps({ ...placement, firstReadMs: 1100, stall: null }, 1100)).toEqual([
      { startMs: 1100, endMs: 1105 },
    ]);
  });

  it('keeps out what the other stream carried alone at the end of a pause, read just after it', () => {
    // Stream A pauses 1000–1040 ms (its next upload is first read at 1040); B carries 1 byte/ms with A, 2 alone,
    // and the server reads B's bytes 4 ms after they crossed. The link carries 2 bytes/ms throughout.
    // 250 ms intervals: the meter resolves gaps to 5 ms.
    const meter = new GoodputMeter(0, 250);
    const lagMs = 4;
    for (let ms = -lagMs; ms < 2000; ms++) {
      const alone = ms >= 1000 && ms < 1040;
      meter.addSpan(ms + lagMs, ms + lagMs + 1, alone ? 2 : 1);
      if (!alone && ms >= 0) meter.addSpan(ms, ms + 1, 1);
    }
    const resumed = { ...placement, receiveStartMs: 1040, firstReadMs: 1040, stall: null };
    for (const gap of uploadGaps(resumed, 1000)) meter.addGap(gap.startMs, gap.endMs);
    const rate = busyWeightedBitsPerSecond(meter, 2000);
    // 2 bytes/ms = 16,000 bit/s. Ending the gap at the first read kept B's last 4 ms alone, read after it, in busy
    // time: 16,016 bit/s.
    expect(rate).toBeCloseTo(16_000, 6);
  });
});

describe('bufferedCopyVerdict', () => {
  // 4 MB sent over 400 ms (the request's 420 ms less a 20 ms round trip).
  const sent = { requestStartMs: 1000, responseStartMs: 1420, idleRttMs: 20, bytes: 4_000_000 };

  it('finds a body a proxy took in whole before the server read it: the handler ran for 6 of 400 ms', () => {
    expect(bufferedCopyVerdict({ ...sent, serverEndMs: 6 })).toBe('copy');
  });

  it('finds it on a slow uplink too: 80 kB over 320 ms, read in 1 ms', () => {
    expect(bufferedCopyVerdict({ ...sent, bytes: 80_000, responseStartMs: 1340, serverEndMs: 1 })).toBe('copy');
  });

  it('finds it when a busy server reads the copy slowly: 4 MB read over 60 ms of its 400', () => {
    expect(bufferedCopyVerdict({ ...sent, serverEndMs: 60 })).toBe('copy');
  });

  it('takes a body read off the link, over most of its sending time, as the link', () => {
    expect(bufferedCopyVerdict({ ...sent, serverEndMs: 380 })).toBe('link');
  });

  it('takes a body behind a deep queue, which delays its headers and its bytes alike, as the link', () => {
    // 300 ms of queue before the headers arrived, then the bytes over their 100 ms of sending.
    expect(bufferedCopyVerdict({ ...sent, serverEndMs: 100 })).toBe('link');
  });

  it('does not judge small or quick uploads, which may arrive in one read on any path', () => {
    expect(bufferedCopyVerdict({ ...sent, bytes: 40_000, serverEndMs: 0 })).toBeNull();
    expect(bufferedCopyVerdict({ ...sent, responseStartMs: 1100, serverEndMs: 1 })).toBeNull();
    // 640 kB over 110 ms: a busy handler's own 30 ms would make a copy look like the link.
    expect(bufferedCopyVerdict({ ...sent, bytes: 640_000, responseStartMs: 1130, serverEndMs: 30 })).toBeNull();
  });

  it("does not judge without the server's time (another server)", () => {
    expect(bufferedCopyVerdict({ ...sent, serverEndMs: null })).toBeNull();
    expect(bufferedCopyVerdict(sent)).toBeNull();
  });
});

describe('readsBufferedCopies', () => {
  it('needs two copies, not one', () => {
    expect(readsBufferedCopies({ copy: 0, link: 0 })).toBe(false);
    expect(readsBufferedCopies({ copy: 1, link: 0 })).toBe(false);
    expect(readsBufferedCopies({ copy: 2, link: 0 })).toBe(true);
  });

  it('lets one slow read of a copy among three not hide the proxy, but not a link that mostly reads as one', () => {
    expect(readsBufferedCopies({ copy: 2, link: 1 })).toBe(false);
    expect(readsBufferedCopies({ copy: 3, link: 1 })).toBe(true);
    expect(readsBufferedCopies({ copy: 5, link: 2 })).toBe(false);
    expect(readsBufferedCopies({ copy: 2, link: 40 })).toBe(false);
  });
});
