import { describe, expect, it } from 'vitest';
import { binastMediaType } from '../../src/binast/media-type';
import { acceptsExplicitly } from '../../src/shared/accept';

describe('BinaryAST in Accept', () => {
  it.each([
    ['the loader header', 'application/javascript-binast, */*', true],
    ['a q-value above zero', 'text/javascript;q=1, application/javascript-binast;q=0.5', true],
    ['different case and spaces', ' Application/JavaScript-BinAST ; q = 1 ', true],
    ['q=0 (refused)', 'application/javascript-binast;q=0', false],
    ['a wildcard only', '*/*', false],
    ['an empty header', '', false],
    ['a missing header', null, false],
    ['garbage', ';;,,q=x', false],
    ['a malformed q-value', 'application/javascript-binast;q=abc', false],
  ])('answers %s', (_name, header, expected) => {
    expect(acceptsExplicitly(header, binastMediaType)).toBe(expected);
  });
});
