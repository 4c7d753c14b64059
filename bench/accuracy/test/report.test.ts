import { describe, expect, it } from 'vitest';
import { checks, csv, goalSummary, markdownTable } from '../report.mjs';

const base = {
  profile: '50/10 40ms',
  engine: 'speedkit',
  repetitions: 3,
  spreadPercent: 2,
  bytes: 50e6,
  wallMs: 12_000,
};
const summaries = [
  { ...base, metric: 'latency', reported: 43.5, truth: 42, biasPercent: 3.57, errorAbs: 1.5 },
  { ...base, metric: 'download', reported: 46e6, truth: 47.8e6, biasPercent: -3.77, errorAbs: -1.8e6 },
  { ...base, metric: 'upload', reported: 8.8e6, truth: 9.56e6, biasPercent: -7.95, errorAbs: -0.76e6 },
  { ...base, metric: 'jitter', reported: Number.NaN, truth: 1, biasPercent: Number.NaN, errorAbs: Number.NaN },
];

describe('markdownTable', () => {
  it('prints throughput in Mbit/s, orders metrics download first, and shows n/a for missing values', () => {
    const lines = markdownTable(summaries).split('\n');
    expect(lines[2]).toContain('| download Mbit/s | speedkit | 46.0 | 47.8 | -3.8 | -1.8 |');
    expect(lines[5]).toContain('| jitter ms | speedkit | n/a |');
    expect(lines).toHaveLength(6);
  });
});

describe('csv', () => {
  it('writes one header and one row per summary, leaving non-finite numbers empty', () => {
    const lines = csv(summaries).split('\n');
    expect(lines[0]).toBe(
      'profile,engine,metric,repetitions,reported,truth,biasPercent,errorAbs,spreadPercent,bytes,wallMs',
    );
    expect(lines).toHaveLength(5);
    expect(lines[4]).toBe('50/10 40ms,speedkit,jitter,3,,1,,,2,50000000,12000');
  });
});

describe('checks', () => {
  it('fails a throughput bias beyond the limit and passes latency within its absolute error', () => {
    const results = checks(summaries, {
      engine: 'speedkit',
      rateMbitOf: () => 50,
      maxRateMbit: 200,
      maxBiasPercent: 5,
      maxLatencyErrorMs: 2,
    });
    expect(results.map((r) => [r.metric, r.ok])).toEqual([
      ['latency', true],
      ['download', true],
      ['upload', false],
    ]);
  });

  it('skips profiles above the rate limit and other engines', () => {
    const limits = { rateMbitOf: () => 1000, maxRateMbit: 200, maxBiasPercent: 5, maxLatencyErrorMs: 2 };
    expect(checks(summaries, { ...limits, engine: 'speedkit' })).toEqual([]);
  });
});

describe('goalSummary', () => {
  const reference = summaries.map((s) => ({ ...s, engine: '@cloudflare/speedtest', bytes: 80e6 }));

  it('judges only profiles both engines ran', () => {
    expect(goalSummary(summaries).checks).toEqual([]);
  });

  it('checks 1.5 % each way and at most half the reference bytes', () => {
    const { table, checks: results } = goalSummary([...summaries, ...reference]);
    expect(results.map((r) => [r.metric, r.ok])).toEqual([
      ['download', false],
      ['upload', false],
      ['bytes', false],
    ]);
    expect(results[2].text).toBe("50/10 40ms bytes: 63 % of the reference's (limit 50 %)");
    expect(table.split('\n')[2]).toBe(
      '| 50/10 40ms | 47.8 / 9.6 | -3.8 / -3.8 | -8.0 / -8.0 | +1.5 / +1.5 | n/a / n/a | 50 / 80 (63 %) |',
    );
  });

  it('shows the jitter error beside the latency error (not a goal check)', () => {
    const withJitter = (engine: string, errorAbs: number) => ({
      ...base,
      engine,
      metric: 'jitter',
      reported: 1 + errorAbs,
      truth: 1,
      biasPercent: errorAbs * 100,
      errorAbs,
    });
    const all = [
      ...summaries.filter((s) => s.metric !== 'jitter'),
      ...reference.filter((s) => s.metric !== 'jitter'),
      withJitter('speedkit', 0.3),
      withJitter('@cloudflare/speedtest', 24.6),
    ];
    const { table, checks: results } = goalSummary(all);
    expect(table.split('\n')[2]).toContain('| +1.5 / +1.5 | +0.3 / +24.6 | 50 / 80 (63 %) |');
    expect(results.map((r) => r.metric)).toEqual(['download', 'upload', 'bytes']);
  });

  it('meets the goals within the limits', () => {
    const close = summaries.map((s) => ({ ...s, biasPercent: s.metric === 'upload' ? 1.4 : -1.5, bytes: 40e6 }));
    expect(goalSummary([...close, ...reference]).checks.every((r) => r.ok)).toBe(true);
  });
});
