import { describe, expect, it } from 'vitest';
import { binastAccept, isBinastContentType } from '../src/media-type';

describe('isBinastContentType', () => {
  it('recognises the BinaryAST media type', () => {
    expect(isBinastContentType('application/javascript-binast')).toBe(true);
  });

  it('ignores parameters, case and whitespace', () => {
    expect(isBinastContentType(' Application/JavaScript-BinAST ; format=optimised')).toBe(true);
  });

  it('treats a missing header as JavaScript', () => {
    expect(isBinastContentType(null)).toBe(false);
  });

  it('does not take JavaScript or look-alike types for BinaryAST', () => {
    for (const type of ['text/javascript', 'application/javascript', 'application/javascript-binastx', '', ';']) {
      expect(isBinastContentType(type)).toBe(false);
    }
  });
});

describe('binastAccept', () => {
  it('prefers BinaryAST but accepts anything, so servers without it answer JavaScript', () => {
    expect(binastAccept).toBe('application/javascript-binast, */*');
  });
});
