import { describe, expect, it } from 'vitest';
import { conditionSpec, expectedLossPercent, isPerfect, symmetricConditions } from '../link-conditions.mjs';

describe('conditionSpec', () => {
  it('writes delay, jitter and loss with their units', () => {
    expect(conditionSpec({ delayMs: 40, jitterMs: 2.5, lossPercent: 0.5 })).toBe('delay=40ms,jitter=2.5ms,loss=0.5%');
  });

  it('writes bursty loss as four percentages with the defaults filled in', () => {
    expect(conditionSpec({ delayMs: 10, burstLoss: { enterBadPercent: 1, exitBadPercent: 25 } })).toBe(
      'delay=10ms,ge=1%/25%/0%/100%',
    );
  });

  it('says nothing for a perfect direction', () => {
    expect(conditionSpec({})).toBe('');
    expect(conditionSpec(undefined)).toBe('');
    expect(isPerfect({ delayMs: 0, lossPercent: 0 })).toBe(true);
    expect(isPerfect({ lossPercent: 0.1 })).toBe(false);
  });

  it('rejects values the emulator would reject', () => {
    expect(() => conditionSpec({ delayMs: -1 })).toThrow(/delayMs/);
    expect(() => conditionSpec({ delayMs: 5, jitterMs: 6 })).toThrow(/jitterMs/);
    expect(() => conditionSpec({ lossPercent: 101 })).toThrow(/lossPercent/);
    expect(() => conditionSpec({ delayMs: Number.NaN })).toThrow(/delayMs/);
  });
});

describe('expectedLossPercent', () => {
  it('is the Bernoulli rate or the Gilbert-Elliott stationary mean', () => {
    expect(expectedLossPercent({ lossPercent: 2 })).toBe(2);
    expect(expectedLossPercent({ burstLoss: { enterBadPercent: 1, exitBadPercent: 24 } })).toBeCloseTo(4, 10);
    expect(expectedLossPercent({})).toBe(0);
  });
});

describe('symmetricConditions', () => {
  it('splits the RTT in halves with the jitter on the downstream half', () => {
    expect(symmetricConditions({ rttMs: 80, jitterMs: 5, lossPercent: 2 })).toEqual({
      down: { delayMs: 40, jitterMs: 5, lossPercent: 2 },
      up: { delayMs: 40, lossPercent: 2 },
    });
  });
});
