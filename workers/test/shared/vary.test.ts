import { describe, expect, it } from 'vitest';
import { addVary } from '../../src/shared/vary';

describe('addVary', () => {
  it.each([
    [null, 'Accept'],
    ['Origin', 'Origin, Accept'],
    ['origin, ACCEPT', 'origin, ACCEPT'],
    ['*', '*'],
  ])('turns Vary %s into %s', (before, after) => {
    const headers = new Headers(before === null ? {} : { vary: before });
    addVary(headers, 'Accept');
    expect(headers.get('vary')).toBe(after);
  });
});
