import { describe, expect, it } from 'vitest';
import { drainWaitMs, headlineIdlePings, maxDrainMs, stillDraining } from '../src/phases/latency';
import { latencyResult } from '../src/result';
import { pingSample as ping } from './ping-sample';

describe('headlineIdlePings', () => {
  // A fresh page's pings read high while the browser starts up; the same path settled reads the truth (28 ms here).
  const start = [44.7, 37.6, 31.4, 32.1, 30.5, 34.8, 31.7, 30.2, 33.3, 31.5].map((ms, i) => ping(100 + 30 * i, ms));
  const settled = [28.7, 28.5, 28.6, 28.8, 28.1, 27.9, 28.1, 28.0, 28.2, 28.1].map((ms, i) => ping(9000 + 30 * i, ms));
  const download = { ...ping(500, 0, 'download'), kind: 'download' as const, bytes: 1e6 };
  const loaded = ping(600, 90, 'download');

  it('makes the idle latency and jitter of the pings taken after the download phase', () => {
    const samples = [...start, download, loaded, ...settled];
    expect(headlineIdlePings(samples)).toEqual(settled);
    const latency = latencyResult(headlineIdlePings(samples), [], []);
    expect(latency.idleMs.value).toBeCloseTo(28.15);
    expect(latency.jitterMs).toBeLessThan(0.5);
  });

  it('falls back to the start pings when none came after the download phase, or there was none', () => {
    expect(headlineIdlePings([...start, download, loaded])).toEqual(start);
    expect(headlineIdlePings(start)).toEqual(start);
    expect(latencyResult(headlineIdlePings(start), [], []).idleMs.value).toBeCloseTo(31.9);
  });
});

describe('drainWaitMs', () => {
  it('waits one round trip under the download load: the queue it built drains within it', () => {
    expect(drainWaitMs(20, [60, 80, 70])).toBe(70);
    expect(drainWaitMs(200, [450, 430, 470])).toBe(450);
  });

  it('never waits less than the idle round trip', () => {
    expect(drainWaitMs(80, [60])).toBe(80);
  });

  it('waits two idle round trips without loaded pings, nothing when nothing is known', () => {
    expect(drainWaitMs(30, [])).toBe(60);
    expect(drainWaitMs(Number.NaN, [])).toBe(0);
  });
});

describe('stillDraining', () => {
  // Start pings and the pings after a download behind an HTTP/2 front (5/1 Mbit/s, 200 ms, s52-h2-jitter).
  const startMs = [205.8, 205.7, 205.7, 206.2, 205.8, 205.7, 205.8, 205.8, 205.4, 207.4];

  it('holds while a ping still waits behind the download, and ends on one that reads as the start pings did', () => {
    expect([242.2, 222.5, 215.5, 213.3].map((pingMs) => stillDraining(pingMs, startMs))).toEqual([
      true,
      true,
      true,
      true,
    ]);
    expect(stillDraining(205.9, startMs)).toBe(false);
    // Up to the highest start ping plus their spread (207.4 + 2.0 ms).
    expect(stillDraining(209.4, startMs)).toBe(false);
    expect(stillDraining(209.6, startMs)).toBe(true);
  });

  it('uses at least 2 ms of margin on a short path, and never holds without start pings', () => {
    expect(stillDraining(7.9, [5, 6, 5.5])).toBe(false);
    expect(stillDraining(8.1, [5, 6, 5.5])).toBe(true);
    // A jittery link's spread is its margin.
    expect(stillDraining(39, [20, 30, 25])).toBe(false);
    expect(stillDraining(41, [20, 30, 25])).toBe(true);
    expect(stillDraining(500, [])).toBe(false);
  });
});

describe('maxDrainMs', () => {
  it('waits 5 s at most, or 10 round trips on a long path', () => {
    expect(maxDrainMs(20)).toBe(5000);
    expect(maxDrainMs(600)).toBe(6000);
    expect(maxDrainMs(Number.NaN)).toBe(5000);
  });
});
