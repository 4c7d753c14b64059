import { describe, expect, it } from 'vitest';
import { browserSignal } from '../../src/priority/signal';

const signalOf = (value?: string) => browserSignal(new Headers(value === undefined ? {} : { priority: value }));

describe('browserSignal: the RFC 9218 Priority request header', () => {
  it('reads what Chromium sends for images over HTTP/2 (measured in the Speed Page lab)', () => {
    expect(signalOf('u=2, i')).toEqual({ urgency: 2, incremental: true }); // the first five sizeable images
    expect(signalOf('i')).toEqual({ urgency: 3, incremental: true }); // Low: urgency left at the default 3
    expect(signalOf('u=0')).toEqual({ urgency: 0, incremental: false });
    expect(signalOf('u=1, i')).toEqual({ urgency: 1, incremental: true });
  });

  it('is no signal at all when the request has no header or nothing in it is understood', () => {
    expect(signalOf()).toBeUndefined();
    expect(signalOf('')).toBeUndefined();
    expect(signalOf('x=1, y')).toBeUndefined();
    expect(signalOf('u=9')).toBeUndefined(); // out of range: treated as absent, as the RFC says
    expect(signalOf('u=high')).toBeUndefined();
  });

  it('ignores unknown members, parameters, whitespace and a bad u next to a good i', () => {
    expect(signalOf(' u=1 ;a=b , foo=?0, i ')).toEqual({ urgency: 1, incremental: true });
    expect(signalOf('i=?0, u=4')).toEqual({ urgency: 4, incremental: false });
    expect(signalOf('u=12, i')).toEqual({ urgency: 3, incremental: true });
  });

  it('does not read an oversized header', () => {
    expect(signalOf(`u=0, ${'x, '.repeat(200)}i`)).toBeUndefined();
  });

  it('never throws on arbitrary header text (seeded)', () => {
    let state = 7;
    const next = () => {
      state = (state * 1103515245 + 12345) >>> 0;
      return state;
    };
    const alphabet = 'ui=?01237,; \t"x-';
    for (let n = 0; n < 3000; n++) {
      const length = next() % 40;
      let text = '';
      for (let i = 0; i < length; i++) text += alphabet[next() % alphabet.length];
      const signal = signalOf(text);
      if (signal) {
        expect(Number.isInteger(signal.urgency) && signal.urgency >= 0 && signal.urgency <= 7, text).toBe(true);
        expect(typeof signal.incremental, text).toBe('boolean');
      }
    }
  });
});
