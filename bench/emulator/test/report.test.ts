import { describe, expect, it } from 'vitest';
import { checks, csv, markdownTable } from '../report.mjs';
import { goodputOfRateBps, iperfUdpLoss, median, medianIntervalBps, relativeErrorPercent } from '../stats.mjs';

describe('emulator bench statistics', () => {
  it('takes the median of the non-omitted iperf3 intervals', () => {
    const report = {
      intervals: [
        { sum: { bits_per_second: 1e6, omitted: true } },
        { sum: { bits_per_second: 90e6 } },
        { sum: { bits_per_second: 95e6 } },
        { sum: { bits_per_second: 20e6 } },
      ],
    };
    expect(medianIntervalBps(report)).toBe(90e6);
    expect(medianIntervalBps({})).toBeNaN();
  });

  it('reads UDP loss from the receiver summary', () => {
    expect(iperfUdpLoss({ end: { sum: { lost_packets: 20, packets: 1000 } } })).toEqual({
      lostPackets: 20,
      packets: 1000,
      lossPercent: 2,
    });
    expect(iperfUdpLoss({}).lossPercent).toBeNaN();
  });

  it('expects tbf goodput of 1448 payload bytes per 1514-byte frame', () => {
    expect(goodputOfRateBps(100)).toBeCloseTo(95.64e6, -4);
    expect(relativeErrorPercent(97, 100)).toBeCloseTo(-3, 10);
    expect(median([3, 1, 2, Number.NaN])).toBe(2);
  });
});

describe('emulator bench checks', () => {
  const results = [
    { kind: 'rtt' as const, label: '80 ms', configuredMs: 80, rttsMs: [80.2, 80.3, 95] },
    {
      kind: 'goodput' as const,
      label: 'TCP down',
      direction: 'down' as const,
      rateMbit: 100,
      rttMs: 80,
      bps: 90e6,
      retransmits: 0,
      emulatorCpuShare: 0.2,
      forwardedBps: 100e6,
    },
    {
      kind: 'loss' as const,
      label: '2 % up',
      direction: 'up' as const,
      configuredPercent: 2,
      lossPercent: 2.1,
      packets: 100_000,
      lostPackets: 2100,
      emulatorDropped: 2100,
      emulatorPackets: 100_000,
      checked: true,
    },
    {
      kind: 'loss' as const,
      label: 'bursty',
      direction: 'down' as const,
      configuredPercent: 2,
      lossPercent: 9,
      packets: 100_000,
      lostPackets: 9000,
      emulatorDropped: 9000,
      emulatorPackets: 100_000,
      checked: false,
    },
  ];

  it('judges RTT by its median, goodput against the tbf goodput and loss relatively', () => {
    expect(checks(results).map((c) => c.ok)).toEqual([true, false, true]);
  });

  it('prints one table row and one CSV row per result', () => {
    expect(markdownTable(results).split('\n')).toHaveLength(2 + results.length);
    expect(markdownTable(results)).toContain('200 % per Gbit/s');
    expect(csv(results).trim().split('\n')).toHaveLength(1 + results.length);
  });
});
