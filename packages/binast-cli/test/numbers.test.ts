import { describe, expect, it } from 'vitest';
import { decodeToJavaScript, encodeJavaScript } from '../src/codec.mjs';
import { brotli, contextBytes as bytes, random } from './context-size';

describe('the context layout codes numbers that are not small integers', () => {
  it('short decimals as m × 10^e: about their information, under brotli of the text', () => {
    const next = random(7);
    const numbers = Array.from({ length: 1000 }, () => String(next(10_000) / 10_000));
    const source = `var t=[${numbers.join(',')}];`;
    // Four random digits hold 13.3 bits. When this was written: 1,803 bytes (1.8 a number), brotli 11 2,033; as
    // 8-byte doubles (format 5) they cost about 5 bytes each.
    expect(bytes(source)).toBeLessThan(2 * numbers.length);
    expect(bytes(source)).toBeLessThan(0.95 * brotli(source));
  });

  it('exactly, whatever their form: long, tiny, huge, and integers beyond the small ones', () => {
    const next = random(11);
    const numbers = [
      ...Array.from({ length: 200 }, () => String(next(1_000_000) / 1_000_000 + next(1000))),
      ...Array.from({ length: 200 }, () => String((next(1 << 30) + 1) / 3)),
      '1e-7',
      '1.1102230246251565e-16',
      '1e21',
      '1e23',
      '5e-324',
      '1.7976931348623157e308',
      '4294967295',
      '9007199254740993',
      '0.1',
      '0.30000000000000004',
    ];
    const source = `var t=[${numbers.join(',')}];`;
    const decoded = decodeToJavaScript(encodeJavaScript(source, { layout: 'context' }));
    const values = new Function(`${decoded};return t`)() as number[];
    expect(values).toEqual(numbers.map(Number));
  });
});
