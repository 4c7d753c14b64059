import { describe, expect, it } from 'vitest';
import {
  messageSizeBytes,
  nextMessage,
  parseReport,
  placeReport,
  queueTargetBytes,
  recentRate,
  socketUploadsWanted,
  socketUrl,
  socketWaitMs,
} from '../src/phases/upload-socket';

describe('socketUrl', () => {
  it('turns the server base into the socket endpoint, ws: for http: and wss: for https:', () => {
    expect(socketUrl('http://10.99.0.1:8900')).toBe('ws://10.99.0.1:8900/__up-ws');
    expect(socketUrl('https://speed.example.com')).toBe('wss://speed.example.com/__up-ws');
  });

  it("uses the page's origin when the server is the page's own", () => {
    expect(socketUrl('', 'https://speed.example.com/app/?autostart=1')).toBe('wss://speed.example.com/__up-ws');
  });
});

describe('parseReport', () => {
  it('reads the bytes and the server time', () => {
    expect(parseReport('{"bytes":262144,"ms":25.5}')).toEqual({ bytes: 262144, ms: 25.5 });
  });

  it('refuses anything else: binary, malformed JSON, negative or fractional counts, missing fields, long text', () => {
    for (const data of [
      new ArrayBuffer(8),
      '{"bytes":',
      '{"bytes":-1,"ms":0}',
      '{"bytes":1.5,"ms":0}',
      '{"ms":3}',
      '{"bytes":10}',
      'null',
      `{"bytes":1,"ms":1,"pad":"${'x'.repeat(300)}"}`,
    ]) {
      expect(parseReport(data)).toBeNull();
    }
  });
});

describe('queueTargetBytes', () => {
  it('keeps a quarter second of the stream queued, or two loaded round trips on a long path', () => {
    // 100 Mbit/s = 12.5 MB/s: 250 ms hold 3.125 MB; with a 400 ms loaded round trip, 800 ms hold 10 MB.
    expect(queueTargetBytes(100e6, 50)).toBe(3_125_000);
    expect(queueTargetBytes(100e6, 400)).toBe(10_000_000);
  });

  it('stays within 128 KiB and 16 MiB, also before the first report (no rate yet)', () => {
    expect(queueTargetBytes(0, Number.NaN)).toBe(128 * 1024);
    expect(queueTargetBytes(1e6, 200)).toBe(128 * 1024);
    expect(queueTargetBytes(10e9, 100)).toBe(16 * 1024 * 1024);
  });
});

describe('messageSizeBytes', () => {
  it('sizes a message to 20 ms of the stream, whole KiB, within 4–64 KiB; 16 KiB before the first report', () => {
    expect(messageSizeBytes(Number.NaN)).toBe(16 * 1024);
    expect(messageSizeBytes(0)).toBe(16 * 1024);
    expect(messageSizeBytes(1e6)).toBe(4 * 1024);
    expect(messageSizeBytes(10e6)).toBe(24 * 1024);
    expect(messageSizeBytes(1e9)).toBe(64 * 1024);
  });
});

describe('nextMessage', () => {
  it('cuts messages one after another from the block and wraps before running past its end', () => {
    const block = new Uint8Array(100).map((_, i) => i);
    const first = nextMessage(block, 0, 40);
    expect([...first.message.slice(0, 2)]).toEqual([0, 1]);
    const second = nextMessage(block, first.next, 40);
    expect(second.message[0]).toBe(40);
    // 80 + 40 > 100: the third starts again at 0, whole.
    const third = nextMessage(block, second.next, 40);
    expect(third.message.length).toBe(40);
    expect(third.message[0]).toBe(0);
    expect(third.next).toBe(40);
  });
});

describe('socketUploadsWanted', () => {
  it('follows an explicit choice', () => {
    expect(socketUploadsWanted('websocket', 1, 1e9)).toBe(true);
    expect(socketUploadsWanted('http', 200, 1e6)).toBe(false);
  });

  it('auto: sockets on paths of 30 ms and a 6 Mbit bandwidth-delay product, under a 200 Mbit/s download', () => {
    expect(socketUploadsWanted('auto', 80, 95e6)).toBe(true); // 7.6 Mbit
    expect(socketUploadsWanted('auto', 50, 140e6)).toBe(true); // 7 Mbit
    expect(socketUploadsWanted('auto', 200, 4.7e6)).toBe(false); // 0.94 Mbit: requests read right there
    expect(socketUploadsWanted('auto', 120, 38e6)).toBe(false); // 4.6 Mbit
    expect(socketUploadsWanted('auto', 15, 475e6)).toBe(false); // short path
    expect(socketUploadsWanted('auto', 50, 200e6)).toBe(false); // too fast for the page's deflate
    expect(socketUploadsWanted('auto', 80, null)).toBe(false); // no download figure
    expect(socketUploadsWanted('auto', Number.NaN, 95e6)).toBe(false);
  });
});

describe('recentRate', () => {
  it('is the rate over the reports, once they span 100 ms', () => {
    expect(recentRate([])).toBe(0);
    expect(
      recentRate([
        { atMs: 0, bytes: 0 },
        { atMs: 50, bytes: 1_000_000 },
      ]),
    ).toBe(0);
    expect(
      recentRate([
        { atMs: 0, bytes: 0 },
        { atMs: 40, bytes: 900_000 },
        { atMs: 400, bytes: 1_000_000 },
      ]),
    ).toBe(20e6);
  });
});

describe('socketWaitMs', () => {
  it('waits 3 s, or ten idle round trips on a long path; an unknown round trip counts as none', () => {
    expect(socketWaitMs(80)).toBe(3000);
    expect(socketWaitMs(400)).toBe(4000);
    expect(socketWaitMs(Number.NaN)).toBe(3000);
  });
});

describe('placeReport', () => {
  // The page's clock runs 1000 ms ahead of the server's socket clock; the way back takes 40 ms (half the round trip).
  const halfRttMs = 40;
  it("places reports by the server's time, mapped by the least arrival − server time seen", () => {
    let placed = placeReport(null, { bytes: 100, ms: 10 }, 1050, halfRttMs, 0);
    expect(placed.placedMs).toBe(1010);
    // This report was held 200 ms on the way back (a lost packet before it): still placed when the server read it.
    placed = placeReport(placed.clock, { bytes: 200, ms: 35 }, 1275, halfRttMs, placed.placedMs);
    expect(placed.placedMs).toBe(1035);
    // A report that comes back faster than any before moves the mapping earlier, never before the last place.
    placed = placeReport(placed.clock, { bytes: 300, ms: 60 }, 1090, halfRttMs, 1035);
    expect(placed.clock?.offsetMs).toBe(1030);
    expect(placed.placedMs).toBe(1050);
    placed = placeReport(placed.clock, { bytes: 400, ms: 61 }, 1091, halfRttMs, 1050);
    expect(placed.placedMs).toBe(1051);
  });

  it('falls back to the arrival for a server time that goes backwards, and never places after the arrival', () => {
    const first = placeReport(null, { bytes: 100, ms: 500 }, 1540, halfRttMs, 0);
    expect(first.placedMs).toBe(1500);
    const back = placeReport(first.clock, { bytes: 200, ms: 100 }, 1600, halfRttMs, first.placedMs);
    expect(back.placedMs).toBe(1560);
    expect(back.clock).toEqual(first.clock);
    // Far ahead on the server's clock (a server that lies): capped at the arrival less half the round trip.
    const ahead = placeReport(first.clock, { bytes: 300, ms: 9000 }, 1700, halfRttMs, 1560);
    expect(ahead.placedMs).toBe(1660);
  });
});
