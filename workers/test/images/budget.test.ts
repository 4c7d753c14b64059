import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/images/core/config';
import { estimateWork, withinBudget } from '../../src/images/core/work-budget';

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
