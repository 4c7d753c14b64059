import { describe, expect, it } from 'vitest';
import { commaList, type InvalidVar, integerIn, oneOf, positiveNumber, varReader } from '../../src/shared/vars';

function reader(vars: Record<string, unknown>) {
  const invalid: InvalidVar[] = [];
  return { read: varReader(vars, (problem) => invalid.push(problem)), invalid };
}

describe('varReader', () => {
  it('uses the default for a missing or empty var without reporting', () => {
    const { read, invalid } = reader({ EMPTY: '' });
    expect(read('MISSING', positiveNumber, 3)).toBe(3);
    expect(read('EMPTY', positiveNumber, 3)).toBe(3);
    expect(invalid).toEqual([]);
  });

  it('parses valid vars and reports invalid ones with their default', () => {
    const { read, invalid } = reader({ A: '1.5', B: '-2', C: '7', D: '8', E: 'sync', F: 'fast' });
    expect(read('A', positiveNumber, 3)).toBe(1.5);
    expect(read('B', positiveNumber, 3)).toBe(3);
    expect(read('C', integerIn(0, 7), 1)).toBe(7);
    expect(read('D', integerIn(0, 7), 1)).toBe(1);
    expect(read('E', oneOf(['sync', 'background']), 'background')).toBe('sync');
    expect(read('F', oneOf(['sync', 'background']), 'background')).toBe('background');
    expect(invalid).toEqual([
      { name: 'B', raw: '-2', fallback: 3, expected: 'a positive number' },
      { name: 'D', raw: '8', fallback: 1, expected: 'an integer from 0 to 7' },
      { name: 'F', raw: 'fast', fallback: 'background', expected: 'one of sync, background' },
    ]);
  });

  it('reads integers in decimal digits only and lists by comma', () => {
    expect(integerIn(0, 10).parse(5)).toBe(5);
    for (const raw of ['1e1', '0x5', ' 5', '2.5', '', true]) expect(integerIn(0, 10).parse(raw)).toBeUndefined();
    expect(commaList.parse(' a, ,b ')).toEqual(['a', 'b']);
    expect(commaList.parse('')).toEqual([]);
    expect(commaList.parse(3)).toBeUndefined();
  });
});
