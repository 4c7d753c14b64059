import { describe, expect, it } from 'vitest';
import { pathTiming } from '../src/phases/bandwidth-request';

const configured = { targetRequestMs: 500, intervalMs: 250 };

describe('pathTiming', () => {
  it('keeps the configured values on short paths', () => {
    expect(pathTiming(configured, 20)).toEqual({ ...configured });
    expect(pathTiming(configured, 62.5)).toEqual({ ...configured });
  });

  it('makes requests last eight round trips and intervals two on long paths', () => {
    expect(pathTiming(configured, 80)).toEqual({ targetRequestMs: 640, intervalMs: 250 });
    expect(pathTiming(configured, 200)).toEqual({ targetRequestMs: 1600, intervalMs: 400 });
  });

  it('falls back to the configured values when the RTT is unknown', () => {
    expect(pathTiming(configured, Number.NaN)).toEqual({ ...configured });
    expect(pathTiming(configured, 0)).toEqual({ ...configured });
  });
});
