import { describe, expect, it } from 'vitest';
import { requestTargetMs } from '../src/phases/bandwidth-request';

describe('requestTargetMs', () => {
  it('keeps the configured target on short paths', () => {
    expect(requestTargetMs(500, 20)).toBe(500);
    expect(requestTargetMs(500, 62.5)).toBe(500);
  });

  it('makes requests last eight round trips on long paths', () => {
    expect(requestTargetMs(500, 80)).toBe(640);
    expect(requestTargetMs(500, 200)).toBe(1600);
  });

  it('falls back to the configured target when the RTT is unknown', () => {
    expect(requestTargetMs(500, Number.NaN)).toBe(500);
    expect(requestTargetMs(500, 0)).toBe(500);
  });
});
