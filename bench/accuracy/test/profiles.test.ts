import { describe, expect, it } from 'vitest';
import { parseProfile, parseProfiles, profiles } from '../profiles.mjs';

describe('parseProfile', () => {
  it('reads back every listed profile from its id', () => {
    for (const listed of profiles) expect(parseProfile(listed.id)).toEqual(listed);
  });

  it('reads a link the list does not hold', () => {
    expect(parseProfile('10/10 60ms ±5 1%')).toEqual({
      id: '10/10 60ms ±5 1%',
      downMbit: 10,
      upMbit: 10,
      rttMs: 60,
      jitterMs: 5,
      lossPercent: 1,
    });
    expect(parseProfile('1.5/0.5')).toMatchObject({ downMbit: 1.5, upMbit: 0.5, rttMs: 0, lossPercent: 0 });
    expect(parseProfile('1.5/0.5')).not.toHaveProperty('queueMs');
  });

  it('reads a shaper queue other than the default, and keeps it in the id', () => {
    expect(parseProfile('50/10 40ms 0.5% q20')).toEqual({
      id: '50/10 40ms 0.5% q20',
      downMbit: 50,
      upMbit: 10,
      rttMs: 40,
      jitterMs: 0,
      lossPercent: 0.5,
      queueMs: 20,
    });
    expect(parseProfile('100/20 q50')?.id).toBe('100/20 0ms q50');
  });

  it('refuses other text and values the testbed cannot build', () => {
    for (const text of [
      '',
      '10',
      '10/2 40',
      'ten/2',
      '0/2',
      '10/2 3000ms',
      '10/2 20ms ±15',
      '10/2 40ms 60%',
      '10/2 q0',
      '10/2 q3000',
      '10/2 q',
    ]) {
      expect(parseProfile(text), text).toBeUndefined();
    }
  });
});

describe('parseProfiles', () => {
  it('reads a comma-separated list of links and names the first entry that is not one', () => {
    expect(parseProfiles('100/100 80ms 0.5%,5/1 200ms 2%').map((p) => p.id)).toEqual([
      '100/100 80ms 0.5%',
      '5/1 200ms 2%',
    ]);
    expect(() => parseProfiles('100/100 80ms 0.5%,fast')).toThrow('not a profile: "fast"');
  });
});
