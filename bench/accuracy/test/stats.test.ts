import { describe, expect, it } from 'vitest';
import { expectedJitterMs } from '../profiles.mjs';
import { retruth } from '../results.mjs';
import {
  biasPercent,
  curlRttsMs,
  iperfGoodputBps,
  lineGoodputBps,
  meanAbsoluteDelta,
  median,
  spreadPercent,
  summarize,
  throughputTruthBps,
  truthLooksStarved,
} from '../stats.mjs';

describe('median', () => {
  it('takes the middle of an odd count and the mean of the two middles of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });

  it('ignores non-finite values and is NaN when nothing is left', () => {
    expect(median([Number.NaN, 7, Number.POSITIVE_INFINITY])).toBe(7);
    expect(median([])).toBeNaN();
  });
});

describe('meanAbsoluteDelta', () => {
  it('averages the absolute steps between consecutive values', () => {
    // |12-10| + |9-12| + |9-9| = 5 over 3 steps
    expect(meanAbsoluteDelta([10, 12, 9, 9])).toBeCloseTo(5 / 3, 12);
  });

  it('is NaN for fewer than two values', () => {
    expect(meanAbsoluteDelta([3])).toBeNaN();
  });
});

describe('biasPercent and spreadPercent', () => {
  it('signs the bias: under-reporting is negative', () => {
    expect(biasPercent(95, 100)).toBeCloseTo(-5, 12);
    expect(biasPercent(110, 100)).toBeCloseTo(10, 12);
  });

  it('is NaN against an unknown or zero truth', () => {
    expect(biasPercent(1, Number.NaN)).toBeNaN();
    expect(biasPercent(1, 0)).toBeNaN();
  });

  it('measures the range across repetitions relative to their median', () => {
    // (110 - 90) / 100
    expect(spreadPercent([90, 100, 110])).toBeCloseTo(20, 12);
    expect(spreadPercent([100])).toBeNaN();
  });
});

describe('iperfGoodputBps', () => {
  it('divides received bytes by seconds over the intervals after the omitted warm-up', () => {
    const report = {
      intervals: [
        { sum: { bytes: 5_000_000, omitted: true, seconds: 1 } },
        // A stalled second and its catch-up: together they still carry the link's rate.
        { sum: { bytes: 35_000, omitted: false, seconds: 1 } },
        { sum: { bytes: 465_000, omitted: false, seconds: 1 } },
        { sum: { bytes: 250_000, omitted: false, seconds: 1 } },
      ],
    };
    // 750 000 bytes × 8 / 3 s
    expect(iperfGoodputBps(report)).toBe(2e6);
  });

  it('is NaN for a report without intervals', () => {
    expect(iperfGoodputBps({})).toBeNaN();
  });
});

describe('curlRttsMs', () => {
  it('subtracts the server time from request-sent-to-first-byte and skips unparsable lines', () => {
    const output = '0.001000 0.026000 cfRequestDuration;dur=1.5\ngarbage\n0.002000 0.024000 \n';
    const rtts = curlRttsMs(output);
    expect(rtts).toHaveLength(2);
    expect(rtts[0]).toBeCloseTo(23.5, 9);
    expect(rtts[1]).toBeCloseTo(22, 9);
  });
});

describe('expectedJitterMs', () => {
  it("is 2J/3 for the emulator's continuous uniform draws in [-J, J]", () => {
    expect(expectedJitterMs(10)).toBeCloseTo(20 / 3, 12);
    expect(expectedJitterMs(0)).toBe(0);
  });
});

describe('summarize', () => {
  it('groups repetitions per profile, engine and metric and compares medians with truth', () => {
    const row = { profile: '50/10 0ms', engine: 'speedkit', metric: 'download', truth: 47.8e6, wallMs: 10_000 };
    const [summary] = summarize([
      { ...row, reported: 46e6, bytes: 100 },
      { ...row, reported: 47e6, bytes: 300 },
      { ...row, reported: 48e6, bytes: 200 },
    ]);
    expect(summary.repetitions).toBe(3);
    expect(summary.reported).toBe(47e6);
    expect(summary.biasPercent).toBeCloseTo(((47 - 47.8) / 47.8) * 100, 9);
    expect(summary.bytes).toBe(200);
  });
});

describe('throughputTruthBps', () => {
  it('takes the best run: a TCP run can fall short of the link, not exceed it', () => {
    expect(throughputTruthBps([1.85e6, 1.85e6, 1.96e6])).toBe(1.96e6);
    expect(throughputTruthBps([Number.NaN, 9.56e6])).toBe(9.56e6);
    expect(throughputTruthBps([])).toBeNaN();
  });

  it("never reads above the link's payload capacity: a run that did took in bytes held back before its window", () => {
    const capacity = lineGoodputBps(100);
    expect(throughputTruthBps([95.66e6, 97.73e6, 95.59e6], capacity)).toBe(capacity);
    expect(throughputTruthBps([93.46e6, 91.64e6], capacity)).toBe(93.46e6);
    expect(throughputTruthBps([Number.NaN], capacity)).toBeNaN();
    expect(throughputTruthBps([5e6], Number.POSITIVE_INFINITY)).toBe(5e6);
    expect(throughputTruthBps([5e6], Number.NaN)).toBe(5e6);
    expect(throughputTruthBps([5e6], 0)).toBe(5e6);
  });
});

describe('truthLooksStarved', () => {
  it('flags a truth under 90 % of the line: CI read 66.4 Mbit/s on a 100 Mbit/s link that carries 95.6', () => {
    expect(truthLooksStarved(66.4e6, 100)).toBe(true);
    expect(truthLooksStarved(Number.NaN, 100)).toBe(true);
    expect(truthLooksStarved(9.07e6, 25)).toBe(true);
  });

  it('leaves truths near the line alone, and directions without a shaped rate', () => {
    expect(truthLooksStarved(95.6e6, 100)).toBe(false);
    expect(truthLooksStarved(53.3e6, 60)).toBe(false);
    expect(truthLooksStarved(4.63e6, 5)).toBe(false);
    expect(truthLooksStarved(1e6, 0)).toBe(false);
  });
});

describe('lineGoodputBps', () => {
  it('is the rate times what a full segment delivers of what tbf meters for it (1448 of 1514 bytes)', () => {
    expect(lineGoodputBps(25)).toBeCloseTo(23.91e6, -4);
    expect(lineGoodputBps(100)).toBeCloseTo(95.641e6, -3);
    expect(lineGoodputBps(0)).toBe(Number.POSITIVE_INFINITY);
    expect(lineGoodputBps(Number.NaN)).toBe(Number.POSITIVE_INFINITY);
    expect(lineGoodputBps(-5)).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('retruth', () => {
  it('re-derives download and upload truth from the recorded iperf3 runs and leaves other rows alone', () => {
    const meta = {
      probes: {
        '10/2 0ms': {
          iperfDownMbit: 9.56,
          iperfUpMbit: 1.85,
          iperfDownRunsMbit: [9.56, 9.03, 9.56],
          iperfUpRunsMbit: [1.85, 1.85, 1.96],
        },
      },
    };
    const base = { profile: '10/2 0ms', engine: 'speedkit', repetition: 1, bytes: 1, wallMs: 1 };
    const rows = [
      { ...base, metric: 'upload', reported: 1.98e6, truth: 1.85e6 },
      { ...base, metric: 'latency', reported: 6, truth: 5.5 },
    ];
    const result = retruth({ meta, rows });
    expect(result.rows[0].truth).toBeCloseTo(1.96e6, 3);
    expect(result.rows[1].truth).toBe(5.5);
    expect(result.meta.probes['10/2 0ms'].iperfUpMbit).toBeCloseTo(1.96, 9);
    expect(rows[0].truth).toBe(1.85e6);
  });

  it('refuses a run that recorded no iperf3 runs', () => {
    expect(() => retruth({ meta: { probes: { x: { iperfUpMbit: 1 } } }, rows: [] })).toThrow(/no recorded iperf3 runs/);
  });

  it("caps the re-derived truth at the profile's payload capacity, and leaves profiles without rates uncapped", () => {
    const probe = { iperfDownRunsMbit: [95.66, 97.73, 95.59], iperfUpRunsMbit: [95.01, 96.34, 96.97] };
    const meta = {
      profiles: [{ id: '100/100 80ms 0.5%', downMbit: 100, upMbit: 100 }],
      probes: { '100/100 80ms 0.5%': probe, unknown: probe },
    };
    const row = { engine: 'speedkit', repetition: 1, bytes: 1, wallMs: 1, metric: 'download', reported: 94.47e6 };
    const rows = [
      { ...row, profile: '100/100 80ms 0.5%', truth: 97.73e6 },
      { ...row, profile: 'unknown', truth: 97.73e6 },
    ];
    const result = retruth({ meta, rows });
    expect(result.rows[0].truth).toBeCloseTo(lineGoodputBps(100), 3);
    expect(result.rows[1].truth).toBeCloseTo(97.73e6, 3);
    expect(result.meta.probes['100/100 80ms 0.5%'].iperfUpMbit).toBeCloseTo(95.641, 3);
  });
});
