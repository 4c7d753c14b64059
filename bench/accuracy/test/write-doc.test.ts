import { describe, expect, it } from 'vitest';
import { overheadTable } from '../overhead.mjs';
import { accuracyDoc, runFile } from '../write-doc.mjs';

const meta = {
  startedAt: '2026-11-22T07:30:00.000Z',
  durationS: 1800,
  machine: { cpu: 'Test CPU', cores: 2, kernel: '6.18', loadBefore: [1, 2, 3], loadAfter: [0.5, 0.25, 0.125] },
  repetitions: 3,
  profiles: [{ id: '50/10 0ms', downMbit: 50, upMbit: 10, rttMs: 0, jitterMs: 0, lossPercent: 0 }],
  probes: {
    '50/10 0ms': {
      iperfDownMbit: 47.81,
      iperfUpMbit: 9.56,
      idleLatencyMs: 3.1,
      curlLatencyMs: 3.2,
      overheadMs: 3.2,
      curlJitterMs: 0.4,
    },
  },
  errors: [{ profile: '50/10 0ms', engine: 'speedkit', repetition: 2, error: 'timeout' }],
};

const summary = {
  profile: '50/10 0ms',
  repetitions: 3,
  truth: 47.81e6,
  errorAbs: 0,
  spreadPercent: 1,
  wallMs: 10_000,
};
const summaries = [
  { ...summary, engine: 'speedkit', metric: 'download', reported: 47.5e6, biasPercent: -0.65, bytes: 30e6 },
  { ...summary, engine: 'speedkit', metric: 'upload', reported: 9.2e6, truth: 9.56e6, biasPercent: -3.8, bytes: 30e6 },
  {
    ...summary,
    engine: 'speedkit',
    metric: 'latency',
    reported: 4,
    truth: 3.2,
    biasPercent: 25,
    errorAbs: 0.8,
    bytes: 30e6,
  },
  { ...summary, engine: '@cloudflare/speedtest', metric: 'download', reported: 45e6, biasPercent: -5.9, bytes: 120e6 },
  { ...summary, engine: '@cloudflare/speedtest', metric: 'upload', reported: 9.5e6, biasPercent: -0.6, bytes: 120e6 },
];

describe('accuracyDoc', () => {
  const run = {
    title: 'Full run',
    file: 'accuracy',
    meta,
    summaries,
    table: '| the table |',
    checks: [{ ok: false, text: '50/10 0ms upload: -8.0% (limit ±5%)' }],
  };
  const doc = accuracyDoc(
    [run, { ...run, title: 'Quiet re-run', file: 'accuracy-quiet' }],
    'Ours is slower on uploads because…',
  );

  it('shows the first run in full and indexes the earlier ones with a link to their own file', () => {
    expect(doc).toContain('\n## Full run\n');
    expect(doc).toContain('bench/results/accuracy/accuracy.{json,csv}');
    expect(doc).not.toContain('## Quiet re-run');
    expect(doc).toContain('| [Quiet re-run](../bench/results/accuracy/accuracy-quiet.md) | 2026-11-22 07:30 | 1 |');
    expect(doc.indexOf('## Earlier runs')).toBeGreaterThan(doc.indexOf('## Full run'));
  });

  it('opens with the issue 15 goals of the current run: 1.5 % each way, half the reference bytes', () => {
    expect(doc.indexOf('## Summary: Full run')).toBeLessThan(doc.indexOf('## Method'));
    expect(doc).toContain(
      '| 50/10 0ms | 47.8 / 9.6 | -0.7 / -5.9 | -3.8 / -0.6 | +0.8 / n/a | n/a / n/a | 30 / 120 (25 %) |',
    );
    expect(doc).toContain('2 of 3 met.');
    expect(doc).toContain('- met: 50/10 0ms download: -0.7% (limit ±1.5%)');
    expect(doc).toContain('- **missed**: 50/10 0ms upload: -3.8% (limit ±1.5%)');
    expect(doc).toContain('- met: 50/10 0ms bytes: 25 % of the reference');
  });

  it('states the date, machine and load of the run', () => {
    expect(doc).toContain('2026-11-22T07:30:00.000Z');
    expect(doc).toContain('Test CPU, 2 cores, Linux 6.18');
    expect(doc).toContain('Load average (1/5/15 min): 1.00 / 2.00 / 3.00 before, 0.50 / 0.25 / 0.13 after.');
  });

  it('lists truth probes beside the theoretical tbf goodput', () => {
    // 50 × 1448 / 1514 = 47.8 and 10 × 1448 / 1514 = 9.6
    expect(doc).toContain('| 50/10 0ms | 47.8 / 9.6 | 47.8 / 9.6 | 3.10 | 3.20 | 3.20 | 0.40 |');
  });

  it('marks failed checks, unfinished runs and appends the findings', () => {
    expect(doc).toContain('- **FAIL**: 50/10 0ms upload: -8.0% (limit ±5%)');
    expect(doc).toContain('- 50/10 0ms speedkit #2: timeout');
    expect(doc).toContain('## Findings\n\nOurs is slower on uploads because…');
  });

  it('places the overhead diagnostic before the findings, only when it was run', () => {
    const table = overheadTable([
      { path: 'Worker', client: 'curl', gapMs: 0, medianMs: [3.1, 3.25] },
      { path: 'Worker', client: 'Chromium fetch loop', gapMs: 20, medianMs: [6.5] },
    ]);
    expect(table).toContain('| Worker | curl | back to back | 3.10 / 3.25 |');
    expect(table).toContain('| Worker | Chromium fetch loop | 20 ms | 6.50 |');
    const withOverhead = accuracyDoc([run], 'Findings text', table);
    const section = withOverhead.indexOf('## Where the local latency overhead comes from');
    expect(section).toBeGreaterThan(withOverhead.indexOf('## Full run'));
    expect(section).toBeLessThan(withOverhead.indexOf('## Findings'));
    expect(withOverhead).toContain(table);
    expect(doc).not.toContain('## Where the local latency overhead comes from');
  });
});

describe('runFile', () => {
  const run = { title: 'Smoke', file: 'accuracy-smoke', meta, summaries, table: '| the table |', checks: [] };

  it('is the run in full under its own top heading, naming where its raw rows are', () => {
    const file = runFile(run, 'reports/accuracy-smoke');
    expect(file.startsWith('# Smoke\n')).toBe(true);
    expect(file).toContain('\n## Truth probes\n');
    expect(file).toContain('Raw rows: reports/accuracy-smoke.{json,csv}.');
    expect(file).toContain('| the table |');
    expect(file.endsWith('\n')).toBe(true);
  });

  it('defaults to the results directory', () => {
    expect(runFile(run)).toContain('Raw rows: bench/results/accuracy/accuracy-smoke.{json,csv}.');
  });
});
