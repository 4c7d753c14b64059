import { describe, expect, it } from 'vitest';
import {
  bodyShareArrivalMs,
  bytesByClass,
  cumulativeLayoutShift,
  resourceClass,
  totalBlockingTime,
} from '../page-metrics.mjs';

describe('cumulativeLayoutShift', () => {
  it('sums shifts within one session window and keeps the largest window', () => {
    const shifts = [
      { startTimeMs: 100, value: 0.1 },
      { startTimeMs: 600, value: 0.05 },
      { startTimeMs: 3000, value: 0.12 },
    ];
    expect(cumulativeLayoutShift(shifts)).toBeCloseTo(0.15);
  });
  it('ignores shifts right after user input', () => {
    expect(cumulativeLayoutShift([{ startTimeMs: 10, value: 0.3, hadRecentInput: true }])).toBe(0);
  });
  it('closes a window after 5 s even without a 1 s gap', () => {
    const shifts = Array.from({ length: 12 }, (_, i) => ({ startTimeMs: i * 900, value: 0.01 }));
    expect(cumulativeLayoutShift(shifts)).toBeCloseTo(0.06);
  });
});

describe('totalBlockingTime', () => {
  it('counts the part over 50 ms of long tasks after FCP only', () => {
    const tasks = [
      { startTimeMs: 0, durationMs: 200 }, // before FCP
      { startTimeMs: 500, durationMs: 120 },
      { startTimeMs: 900, durationMs: 40 },
    ];
    expect(totalBlockingTime(tasks, 300)).toBe(70);
  });
  it('counts only the part after FCP of a task that straddles it', () => {
    expect(totalBlockingTime([{ startTimeMs: 100, durationMs: 300 }], 250)).toBe(100);
  });
});

describe('bytesByClass', () => {
  it('groups requests by what they are', () => {
    expect(resourceClass('Fetch', 'application/javascript-binast')).toBe('js');
    const totals = bytesByClass([
      { cdpType: 'Document', mimeType: 'text/html', encodedBytes: 5000 },
      { cdpType: 'Image', mimeType: 'image/avif', encodedBytes: 20000 },
      { cdpType: 'Image', mimeType: 'image/jpeg', encodedBytes: 30000 },
      { cdpType: 'Script', mimeType: 'text/javascript', encodedBytes: 7000 },
    ]);
    expect(totals.image).toEqual({ bytes: 50000, requests: 2 });
    expect(totals.html.requests).toBe(1);
    expect(totals.font).toEqual({ bytes: 0, requests: 0 });
  });
});

describe('bodyShareArrivalMs', () => {
  // A 100 KB body in four chunks: 10 KB at 200 ms, 20 KB at 400 ms, 30 KB at 700 ms, 40 KB at 1,000 ms.
  const chunks: [number, number][] = [
    [200, 10_000],
    [400, 20_000],
    [700, 30_000],
    [1000, 40_000],
  ];
  it('gives the time of the chunk that completes the share, counting an exact hit', () => {
    expect(bodyShareArrivalMs(chunks, 10)).toBe(200);
  });
  it('gives the later chunk when a share falls inside it', () => {
    expect(bodyShareArrivalMs(chunks, 25)).toBe(400);
    expect(bodyShareArrivalMs(chunks, 50)).toBe(700);
  });
  it('gives the last chunk for the whole body', () => {
    expect(bodyShareArrivalMs(chunks, 100)).toBe(1000);
  });
  it('is NaN when no body bytes were recorded', () => {
    expect(bodyShareArrivalMs([], 10)).toBeNaN();
    expect(bodyShareArrivalMs([[50, 0]], 10)).toBeNaN();
  });
});
