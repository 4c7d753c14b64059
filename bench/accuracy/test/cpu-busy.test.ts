import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { busyPercent, startCpuBusy } from '../cpu-busy.mjs';

describe('busyPercent', () => {
  it('is the share of CPU time not idle between two readings', () => {
    expect(busyPercent({ total: 1000, idle: 800 }, { total: 1400, idle: 1100 })).toBe(25);
    expect(busyPercent({ total: 1000, idle: 800 }, { total: 1200, idle: 800 })).toBe(100);
  });

  it('is NaN when no time passed between the readings', () => {
    expect(busyPercent({ total: 1000, idle: 800 }, { total: 1000, idle: 800 })).toBeNaN();
  });
});

describe('startCpuBusy', () => {
  // Linux only: elsewhere there is no /proc/stat, and the bench reports no CPU figures (vitest counts this as skipped).
  it.runIf(existsSync('/proc/stat'))(
    'samples this machine every 250 ms: a mean and a maximum within 0–100 %',
    async () => {
      const cpu = startCpuBusy();
      await new Promise((resolve) => setTimeout(resolve, 600));
      const busy = cpu.stop();
      expect(busy.samples.length).toBeGreaterThanOrEqual(1);
      for (const value of [busy.meanPercent, busy.maxPercent, ...busy.samples.map((s) => s.percent)]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(100);
      }
      expect(busy.startedAtMs).toBeLessThanOrEqual(Date.now());
    },
  );
});
