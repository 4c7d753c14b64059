import { describe, expect, it } from 'vitest';
import { contextBytes as bytes, random } from './context-size';

/** Text no order-1..3 context predicts: random letters and digits. */
function noise(length: number, seed: number): string {
  const next = random(seed);
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  return Array.from({ length }, () => alphabet[next(alphabet.length)]).join('');
}

/** A function body of random statements over a few names and random numbers: a run of values seen once. */
function oddFunction(name: string, seed: number): string {
  const next = random(seed);
  const names = ['a', 'b', 'c', 'd', 'e'];
  const pick = () => names[next(names.length)];
  const statements = Array.from({ length: 200 }, () => {
    switch (next(4)) {
      case 0:
        return `${pick()}=${pick()}*${next(1000)}+${pick()};`;
      case 1:
        return `if(${pick()}>${next(50)})${pick()}-=${next(9)};`;
      case 2:
        return `${pick()}=[${pick()},${next(300)},${pick()}];`;
      default:
        return `${pick()}.x${next(20)}(${pick()},${next(7)});`;
    }
  });
  return `function ${name}(a,b,c,d,e){${statements.join('')}return a}`;
}

describe('the context layout codes a repeat for much less than the first copy', () => {
  it('text: a long string written again with a different end (the text match model)', () => {
    // 3,001 characters: a length that is not a multiple of 4, so the text is not taken for base64 (format 6).
    const text = noise(3001, 7);
    const one = bytes(`var p="${text}";`);
    const two = bytes(`var p="${text}",q="${text}!";`);
    // The first copy costs about 6 bits a character; the second only its changed byte and the guesses: 1 byte when
    // this test was written, where format 4 (no text match model) paid 379 bytes, 16 % of the first copy.
    expect(one).toBeGreaterThan(2000);
    expect(two - one).toBeLessThan(0.1 * one);
  });

  it('code: a function body written again under another name (the value match model)', () => {
    const body = oddFunction('f', 11);
    const one = bytes(`${body}f(1,2,3,4,5);`);
    const two = bytes(`${body}${body.replace('function f', 'function g')}f(1,2,3,4,5);g(1,2,3,4,5);`);
    // Format 4, before the value match model, spent 71 % of the first copy on the second (501 of 703 bytes);
    // format 5 spends 25 % (167 of 668): every decision still pays for the guess being trusted.
    expect(two - one).toBeLessThan(0.35 * one);
  });
});
