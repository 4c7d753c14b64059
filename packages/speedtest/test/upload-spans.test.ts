import { describe, expect, it } from 'vitest';
import { uploadGaps, uploadSpans } from '../src/stats/upload-spans';

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
      receiveEndMs: 2060,
      stalls: [],
    });
  });

  it('reports a stretch with nothing read longer than stallMs as a stall, on the client clock', () => {
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
    expect(spans.fromServer && spans.stalls).toEqual([{ startMs: 1160, endMs: 1860 }]);
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
    expect(spans.fromServer && spans.stalls).toEqual([]);
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
    expect(spans.fromServer && spans.stalls).toEqual([]);
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

describe('uploadGaps', () => {
  const placement = {
    spans: [{ startMs: 1100, endMs: 2000, bytes: 1000 }],
    fromServer: true as const,
    receiveStartMs: 1100,
    receiveEndMs: 2000,
    stalls: [{ startMs: 1500, endMs: 1900 }],
  };

  it('gives the idle round trip since the previous upload and every stall', () => {
    expect(uploadGaps(placement, 1000)).toEqual([
      { startMs: 1000, endMs: 1100 },
      { startMs: 1500, endMs: 1900 },
    ]);
  });

  it('gives nothing for a stream the server gave no read times for', () => {
    expect(uploadGaps({ spans: [], fromServer: false }, 1000)).toEqual([]);
  });

  it('leaves out an empty idle time when the next upload was read at once', () => {
    expect(uploadGaps({ ...placement, stalls: [] }, 1100)).toEqual([]);
  });
});
