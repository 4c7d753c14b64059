import { describe, expect, it } from 'vitest';
import { randomBlob, randomBlockBytes } from '../src/probe';

describe('randomBlob', () => {
  it('is exactly as long as asked, for sizes below, at and across the random block', async () => {
    for (const bytes of [0, 1000, randomBlockBytes, 2.5 * randomBlockBytes + 7]) {
      expect((await (await randomBlob(bytes)).arrayBuffer()).byteLength).toBe(bytes);
    }
  });

  it('holds a megabyte of distinct random bytes before it repeats, beyond any compressor window', async () => {
    const bytes = new Uint8Array(await (await randomBlob(2 * randomBlockBytes)).arrayBuffer());
    const first = bytes.subarray(0, randomBlockBytes);
    // Random bytes: every value occurs, none dominates (a zero-filled or short-period block would fail).
    const counts = new Array(256).fill(0);
    for (const value of first) counts[value]++;
    expect(Math.min(...counts)).toBeGreaterThan(0);
    expect(Math.max(...counts)).toBeLessThan((randomBlockBytes / 256) * 1.2);
    // No repeat within the block's first 64 KiB window at any shorter period.
    expect(first.subarray(0, 1024)).not.toEqual(first.subarray(32 * 1024, 33 * 1024));
  });
});
