import { describe, expect, it } from 'vitest';
import { formatValue, summarise } from '../summary.mjs';
import { allVariants } from '../variants.mjs';

const variants = allVariants.filter((v) => ['origin', 'worker-off', 'images', 'priority'].includes(v.id));
const byClass = { html: { bytes: 1, requests: 1 } };

/** Runs whose LCP/SI are `ms` ± a little, and `bytes` exactly. */
function runsOf(variant: string, count: number, ms: number, bytes: number) {
  return Array.from({ length: count }, (_, i) => ({
    profile: 'mobile',
    variant,
    run: i + 1,
    protocol: 'h2',
    lcpMs: ms + i * 10,
    speedIndexMs: ms + i * 10,
    totalBytes: bytes + i,
    byClass,
  }));
}

describe('summarise', () => {
  it('writes a claimed improvement as a sentence a site owner reads', () => {
    const runs = [
      ...runsOf('origin', 5, 3800, 2_000_000),
      ...runsOf('worker-off', 5, 3900, 1_800_000),
      ...runsOf('images', 5, 2400, 700_000),
      ...runsOf('priority', 5, 3890, 1_800_000),
    ];
    const [mobile] = summarise(runs, variants, ['mobile']);
    const images = mobile?.findings.find((f) => f.variant === 'images');
    expect(images?.sentence).toBe(
      'Image negotiation: LCP 3.92 s → 2.42 s (−38 %), Speed Index 3.92 s → 2.42 s (−38 %), Bytes 1.80 MB → 700 KB (−61 %) on mobile.',
    );
  });
  it('makes no claim when the intervals overlap or the change is under 1 %', () => {
    const runs = [
      ...runsOf('worker-off', 5, 3900, 1_800_000),
      ...runsOf('priority', 5, 3890, 1_800_050),
      ...runsOf('origin', 5, 3900, 1_800_000),
      ...runsOf('images', 5, 3900, 1_800_000),
    ];
    const [mobile] = summarise(runs, variants, ['mobile']);
    const priority = mobile?.findings.find((f) => f.variant === 'priority');
    expect(priority?.changes.every((c) => !c.claim)).toBe(true);
    expect(priority?.sentence).toMatch(/no measurable difference on mobile/);
  });
  it('makes no claim from fewer than 3 runs, however large the change', () => {
    const runs = [...runsOf('worker-off', 2, 3900, 1_800_000), ...runsOf('images', 2, 1000, 500_000)];
    const [mobile] = summarise(runs, variants, ['mobile']);
    const images = mobile?.findings.find((f) => f.variant === 'images');
    expect(images?.changes.some((c) => c.claim)).toBe(false);
    expect(images?.sentence).toMatch(/no claim on mobile \(fewer than 3 runs/);
  });
  // Until 2026-11-28: "no claim on mobile (fewer than 3 runs; medians LCP n/a → 848 ms (no % of a zero), …)".
  it('says a variant whose every run failed has nothing to compare', () => {
    const failed = [1, 2].map((run) => ({ profile: 'mobile', variant: 'origin', run, error: 'load did not fire' }));
    const runs = [...failed, ...runsOf('worker-off', 2, 3900, 1_800_000), ...runsOf('images', 2, 3000, 700_000)];
    const [mobile] = summarise(runs, variants, ['mobile']);
    const hop = mobile?.findings.find((f) => f.variant === 'worker-off');
    expect(hop?.sentence).toBe(
      'The Worker hop (all off vs origin direct): no claim on mobile (Origin direct: all 2 run(s) failed).',
    );
    expect(hop?.changes[0]?.text).toBe('LCP n/a → 3.90 s (nothing to compare)');
  });
  it('counts the runs in which the lab sent a request again (wrangler dev dropped it), and keeps them', () => {
    const runs = runsOf('images', 3, 3000, 700_000).map((run, i) =>
      i === 1 ? { ...run, labRetries: ['http://site.test/img/a.jpg: upstream ECONNRESET (socket hang up)'] } : run,
    );
    const [mobile] = summarise(runs, variants, ['mobile']);
    const images = mobile?.rows.find((row) => row.variant === 'images');
    expect(images).toMatchObject({ runs: 3, failedRuns: 0, labRetriedRuns: 1 });
  });
  it('formats durations, bytes and counts with their units', () => {
    expect(formatValue(980, 'ms')).toBe('980 ms');
    expect(formatValue(3900, 'ms')).toBe('3.90 s');
    expect(formatValue(1_770_000, 'bytes')).toBe('1.77 MB');
    expect(formatValue(23_500, 'bytes')).toBe('24 KB');
    // A small page's bytes are not "0 KB".
    expect(formatValue(431, 'bytes')).toBe('431 B');
    expect(formatValue(Number.NaN, 'ms')).toBe('n/a');
  });
});
