import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/images/core/config';
import {
  encoderLadders,
  estimateWork,
  planEncode,
  type WorkShape,
  withinBudget,
} from '../../src/images/core/work-budget';

const jpeg = (width: number, height: number) => ({ format: 'jpeg' as const, width, height });

describe('estimateWork', () => {
  it('grows with output pixels: 3900² of WebP is far over the default budget, a thumbnail far under', () => {
    const huge = estimateWork({
      source: jpeg(451, 300),
      resized: true,
      output: { width: 3900, height: 3900 },
      target: 'webp',
    });
    const thumb = estimateWork({
      source: jpeg(451, 300),
      resized: true,
      output: { width: 100, height: 66 },
      target: 'webp',
    });
    expect(withinBudget(huge, defaultConfig.maxWorkMs)).toBe(false);
    expect(withinBudget(thumb, defaultConfig.maxWorkMs)).toBe(true);
    expect(huge.encodeMs).toBeGreaterThan(thumb.encodeMs * 1000);
  });

  it('charges a progressive JPEG for every scan: 10,000 scans over 3 MP cost minutes, not milliseconds', () => {
    const base = {
      source: jpeg(1728, 1728),
      resized: true,
      output: { width: 100, height: 100 },
      target: 'webp' as const,
    };
    const hostile = estimateWork({ ...base, jpegScans: 10_000 });
    expect(hostile.decodeMs).toBeGreaterThan(100 * estimateWork({ ...base, jpegScans: 1 }).decodeMs);
    expect(withinBudget(hostile, defaultConfig.maxWorkMs)).toBe(false);
  });

  it('ranks AVIF above WebP above PNG for the same pixels', () => {
    const of = (target: 'avif' | 'webp' | 'png') =>
      estimateWork({ source: jpeg(1000, 1000), resized: false, output: { width: 1000, height: 1000 }, target }).totalMs;
    expect(of('avif')).toBeGreaterThan(of('webp'));
    expect(of('webp')).toBeGreaterThan(of('png'));
  });

  it('adds no resize cost when the pixels keep their size', () => {
    expect(
      estimateWork({ source: jpeg(800, 600), resized: false, output: { width: 800, height: 600 }, target: 'webp' })
        .resizeMs,
    ).toBe(0);
  });
});

describe('planEncode: the cheapest adequate encoder setting within the budget', () => {
  const budgetMs = defaultConfig.maxWorkMs;
  const same = (width: number, height: number, target: WorkShape['target'], jpegScans = 1): WorkShape => ({
    source: jpeg(width, height),
    jpegScans,
    resized: false,
    output: { width, height },
    target,
  });

  it('orders every ladder from full effort down, each rung strictly cheaper', () => {
    for (const ladder of Object.values(encoderLadders)) {
      expect(ladder.length).toBeGreaterThan(0);
      for (let index = 1; index < ladder.length; index += 1) {
        expect(ladder[index]?.encodeMsPerMegapixel).toBeLessThan(ladder[index - 1]?.encodeMsPerMegapixel ?? 0);
      }
    }
  });

  it('keeps full effort whenever it fits', () => {
    const plan = planEncode(same(800, 600, 'webp'), budgetMs);
    expect(plan).toMatchObject({ ok: true, reduced: false, rung: { id: 'm4' } });
    if (plan.ok) expect(plan.estimate).toEqual(estimateWork(same(800, 600, 'webp')));
  });

  it('converts a 1600x1395 progressive hero (10 scans) to WebP at the first faster method that fits, not the fastest', () => {
    const hero = same(1600, 1395, 'webp', 10);
    expect(withinBudget(estimateWork(hero), budgetMs)).toBe(false);
    const plan = planEncode(hero, budgetMs);
    expect(plan).toMatchObject({ ok: true, reduced: true, rung: { id: 'm2', setting: { webpMethod: 2 } } });
    if (plan.ok) {
      expect(plan.estimate.totalMs).toBeLessThanOrEqual(budgetMs);
      // Only the encode gets cheaper; the decode of ten scans is the same work at every setting.
      expect(plan.estimate.decodeMs).toBe(estimateWork(hero).decodeMs);
    }
  });

  it('walks further down only as far as it must', () => {
    // 5.76 MP (the planner does not apply the output cap): method 2 is over the default budget, method 0 fits.
    const big = same(2400, 2400, 'webp');
    const [, methodTwo, methodZero] = encoderLadders.webp;
    if (!methodTwo || !methodZero) throw new Error('the WebP ladder should have three rungs');
    expect(withinBudget(estimateWork(big, methodTwo), budgetMs)).toBe(false);
    expect(planEncode(big, budgetMs)).toMatchObject({ ok: true, reduced: true, rung: { id: 'm0' } });
  });

  it('lets AVIF that misses the budget at speed 8 fit at speed 10', () => {
    const photo = same(1500, 1200, 'avif');
    expect(withinBudget(estimateWork(photo), budgetMs)).toBe(false);
    expect(planEncode(photo, budgetMs)).toMatchObject({
      ok: true,
      reduced: true,
      rung: { setting: { avifSpeed: 10 } },
    });
  });

  it("refuses when even the fastest setting is over, reporting that setting's estimate", () => {
    const huge = same(4000, 4000, 'webp');
    const fastest = encoderLadders.webp.at(-1);
    const plan = planEncode(huge, budgetMs);
    expect(plan.ok).toBe(false);
    expect(plan.estimate).toEqual(estimateWork(huge, fastest));
    expect(plan.estimate.totalMs).toBeGreaterThan(budgetMs);
  });

  it('has one setting for formats without a ladder: over the budget is over', () => {
    const plan = planEncode(same(2000, 1500, 'jpeg'), budgetMs);
    expect(plan.ok).toBe(false);
  });
});
