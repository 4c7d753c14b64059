import { describe, expect, it } from 'vitest';
import { overheadTable } from '../overhead.mjs';
import { accuracyDoc } from '../write-doc.mjs';

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

describe('accuracyDoc', () => {
  const run = {
    title: 'Full run',
    file: 'accuracy',
    meta,
    table: '| the table |',
    checks: [{ ok: false, text: '50/10 0ms upload: -8.0% (limit ±5%)' }],
  };
  const doc = accuracyDoc(
    [run, { ...run, title: 'Quiet re-run', file: 'accuracy-quiet' }],
    'Ours is slower on uploads because…',
  );

  it('gives every run its own section with its raw data file', () => {
    expect(doc).toContain('## Full run');
    expect(doc).toContain('## Quiet re-run');
    expect(doc).toContain('bench/results/accuracy/accuracy-quiet.{json,csv}');
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
