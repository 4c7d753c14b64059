import { describe, expect, it } from 'vitest';
import { lossPacing, relayUrlsFor, sleepOrAbort } from '../src/phases/loss';
import { lossEstimate, wilsonInterval } from '../src/stats/loss';
import { classify } from '../src/stats/quality';
import { listenerCount } from './listeners.mjs';

describe('wilsonInterval', () => {
  it('matches the textbook value for 20 of 1000 (95 %)', () => {
    // Wilson interval for p̂ = 0.02, n = 1000, z = 1.96: [0.01299, 0.03070] (Newcombe 1998, method 3).
    const { low, high } = wilsonInterval(20, 1000);
    expect(low).toBeCloseTo(0.01299, 4);
    expect(high).toBeCloseTo(0.0307, 4);
  });

  it('is not zero-width at 0 losses and stays inside [0, 1]', () => {
    const none = wilsonInterval(0, 500);
    expect(none.low).toBe(0);
    expect(none.high).toBeGreaterThan(0.005);
    expect(none.high).toBeLessThan(0.01);
    const all = wilsonInterval(500, 500);
    expect(all.high).toBe(1);
    expect(all.low).toBeGreaterThan(0.99);
  });

  it('narrows as samples grow', () => {
    const small = wilsonInterval(2, 100);
    const large = wilsonInterval(200, 10_000);
    expect(large.high - large.low).toBeLessThan((small.high - small.low) / 5);
  });

  it('knows nothing without samples', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });
});

describe('lossEstimate', () => {
  it('counts each arrived sequence once and ignores numbers never sent', () => {
    const arrived = [0, 1, 1, 2, 3, 5, 5, 7, 9, 12, -1, 2.5];
    const estimate = lossEstimate(10, arrived);
    expect(estimate.sent).toBe(10);
    expect(estimate.received).toBe(7);
    expect(estimate.lossPct).toBeCloseTo(30, 10);
    expect(estimate.lowPct).toBeLessThan(30);
    expect(estimate.highPct).toBeGreaterThan(30);
  });

  it('reports 0 % with a non-zero upper bound when everything arrived', () => {
    const estimate = lossEstimate(
      600,
      Array.from({ length: 600 }, (_, index) => index),
    );
    expect(estimate.lossPct).toBe(0);
    expect(estimate.lowPct).toBe(0);
    expect(estimate.highPct).toBeGreaterThan(0.3);
    expect(estimate.highPct).toBeLessThan(1);
  });
});

describe('loss in the quality classes', () => {
  const fastLink = {
    downloadBitsPerSecond: 100e6,
    uploadBitsPerSecond: 20e6,
    idleLatencyMs: 10,
    jitterMs: 1,
    loadedLatencyMs: 30,
  };

  it('leaves loss out when it was not measured (no TURN relay)', () => {
    expect(classify({ ...fastLink, lossPct: null })).toEqual({
      streaming: 'great',
      gaming: 'great',
      videoCalls: 'great',
    });
  });

  it('lets 2 % loss cost calls and games more than streaming', () => {
    expect(classify({ ...fastLink, lossPct: 2 })).toEqual({
      streaming: 'good',
      gaming: 'average',
      videoCalls: 'average',
    });
  });

  it('rates 6 % loss bad for real-time use', () => {
    const classes = classify({ ...fastLink, lossPct: 6 });
    expect(classes.gaming).toBe('bad');
    expect(classes.videoCalls).toBe('bad');
    expect(classes.streaming).toBe('poor');
  });
});

describe('relayUrlsFor', () => {
  const listed = ['turn:relay.example:3478?transport=udp', 'turn:relay.example:3478?transport=tcp'];

  it('derives each peer transport from the turn: URLs /turn-creds lists, once each', () => {
    expect(relayUrlsFor(listed, 'udp')).toEqual(['turn:relay.example:3478?transport=udp']);
    expect(relayUrlsFor(listed, 'tcp')).toEqual(['turn:relay.example:3478?transport=tcp']);
    expect(relayUrlsFor(['turn:10.0.0.1:3478'], 'tcp')).toEqual(['turn:10.0.0.1:3478?transport=tcp']);
  });

  it('lets a turns: (TLS over TCP) URL serve the TCP peer only', () => {
    const tlsOnly = ['turns:relay.example:5349'];
    expect(relayUrlsFor(tlsOnly, 'tcp')).toEqual(tlsOnly);
    expect(relayUrlsFor(tlsOnly, 'udp')).toEqual([]);
  });
});

describe('sleepOrAbort', () => {
  it('leaves no abort listener behind once it has slept (the pacing sleeps once per packet)', async () => {
    const controller = new AbortController();
    for (let packet = 0; packet < 20; packet++) await sleepOrAbort(0, controller.signal);
    expect(listenerCount(controller.signal, 'abort')).toBe(0);
  });

  it('rejects with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    const slept = sleepOrAbort(60_000, controller.signal);
    controller.abort('stopped');
    await expect(slept).rejects.toBe('stopped');
  });
});

describe('lossPacing', () => {
  it('keeps the defaults on a link well above their ≈ 0.8 Mbit/s, or when no rate was measured', () => {
    expect(lossPacing(3000, 20e6)).toEqual({ packets: 3000, packetIntervalMs: 2 });
    expect(lossPacing(3000, null)).toEqual({ packets: 3000, packetIntervalMs: 2 });
    expect(lossPacing(3000, Number.NaN)).toEqual({ packets: 3000, packetIntervalMs: 2 });
  });

  it('paces to a quarter of a slow link and sends fewer packets in the same 6 s (256/64 kbit/s: 92 % "loss" before)', () => {
    // 200 wire bytes per packet at a quarter of 60 kbit/s: one every 106.7 ms, 56 of them in 6 s.
    const pacing = lossPacing(3000, 60_000);
    expect(pacing.packetIntervalMs).toBeCloseTo(106.67, 1);
    expect(pacing.packets).toBe(56);
    // The test's own rate stays at a quarter of the link's.
    expect((200 * 8 * 1000) / pacing.packetIntervalMs).toBeCloseTo(15_000, 0);
  });

  it('sends at least one packet on the slowest link', () => {
    expect(lossPacing(3000, 100).packets).toBe(1);
  });
});
