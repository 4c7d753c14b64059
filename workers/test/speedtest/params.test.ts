import { describe, expect, it } from 'vitest';
import { parseBytesParam } from '../../src/speedtest/params';

describe('parseBytesParam', () => {
  it('accepts a plain integer', () => {
    expect(parseBytesParam('100000', 1e9)).toEqual({ ok: true, bytes: 100000 });
  });

  it('accepts zero, the latency probe', () => {
    expect(parseBytesParam('0', 1e9)).toEqual({ ok: true, bytes: 0 });
  });

  it('accepts exponent notation that denotes a whole number', () => {
    expect(parseBytesParam('1e5', 1e9)).toEqual({ ok: true, bytes: 100000 });
  });

  it('refuses a missing or empty value', () => {
    expect(parseBytesParam(null, 1e9)).toMatchObject({
      ok: false,
      status: 400,
      error: 'query parameter bytes is required',
    });
    expect(parseBytesParam('', 1e9)).toMatchObject({ ok: false, status: 400 });
  });

  it.each(['-1', '1.5', 'abc', '0x10', '1e-3', 'Infinity', '10 000', '+5', ' 5', '5 ', '\t5', '-0', '1e400', '５'])(
    'refuses %s as not a non-negative integer',
    (raw) => {
      expect(parseBytesParam(raw, 1e9)).toMatchObject({
        ok: false,
        status: 400,
        error: 'bytes must be a non-negative integer',
      });
    },
  );

  it('refuses values above the cap with 400 by default and 413 when asked', () => {
    expect(parseBytesParam('1000000001', 1e9)).toMatchObject({ ok: false, status: 400, detail: { maxBytes: 1e9 } });
    expect(parseBytesParam('11', 10, 413)).toMatchObject({ ok: false, status: 413 });
    // Twenty digits: not a safe integer, but plainly over the cap, and the answer says that.
    expect(parseBytesParam('99999999999999999999', 1e9)).toMatchObject({
      ok: false,
      status: 400,
      error: 'bytes must be at most 1000000000',
    });
  });

  it('refuses a repeated bytes rather than picking one', () => {
    expect(parseBytesParam(['10', '20'], 1e9)).toMatchObject({ ok: false, status: 400, error: /once/ });
    expect(parseBytesParam(['10'], 1e9)).toEqual({ ok: true, bytes: 10 });
    expect(parseBytesParam([], 1e9)).toMatchObject({ ok: false, status: 400 });
  });

  it('accepts exactly the cap', () => {
    expect(parseBytesParam('10', 10)).toEqual({ ok: true, bytes: 10 });
  });
});
