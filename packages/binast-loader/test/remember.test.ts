import { describe, expect, it } from 'vitest';
import { scriptKey } from '../src/model';
import type { ScriptRecord } from '../src/record';
import { type BodyTiming, decoderWouldWin, hintedSizes, measureLinkMbit, plainKeys } from '../src/remember';

// 125 bytes per ms = 1 Mbit/s.
// Over the network: the body plus ~300 bytes of headers on the wire.
const body = (responseStart: number, responseEnd: number, encodedBodySize: number): BodyTiming => ({
  responseStart,
  responseEnd,
  encodedBodySize,
  transferSize: encodedBodySize + 300,
});

describe("measureLinkMbit: the link's throughput from what one view downloaded", () => {
  it('is bytes over the time a large response was arriving', () => {
    // 200,000 bytes in 1000 ms = 200 B/ms = 1.6 Mbit/s.
    expect(measureLinkMbit([body(100, 1100, 200_000)])).toBeCloseTo(1.6, 6);
  });

  it('counts overlapping downloads together: five scripts sharing a 1.6 Mbit/s link read 1.6, not a fifth of it', () => {
    // Five responses of 40,000 bytes arriving side by side over the same 1000 ms.
    const shared = [0, 1, 2, 3, 4].map((index) => body(100 + index, 1100, 40_000));
    expect(measureLinkMbit(shared)).toBeCloseTo(1.6, 1);
  });

  it('leaves out idle time between downloads and responses too small to measure throughput', () => {
    // Two 1.6 Mbit/s downloads with 5 s of nothing between them, plus a small response that would read as infinite.
    const bodies = [body(0, 500, 100_000), body(5500, 6000, 100_000), body(7000, 7001, 9_000)];
    expect(measureLinkMbit(bodies)).toBeCloseTo(1.6, 6);
  });

  it('is 0 when nothing large came over the network (a repeat view from the cache, cross-origin sizes hidden)', () => {
    expect(measureLinkMbit([])).toBe(0);
    expect(measureLinkMbit([body(0, 0, 0), body(10, 20, 5_000)])).toBe(0);
    // From the cache (nothing on the wire), or revalidated (a 304's headers on the wire, the body from the cache):
    // such bodies "arrive" far faster than any link.
    expect(measureLinkMbit([{ ...body(10, 11, 50_000), transferSize: 0 }])).toBe(0);
    expect(measureLinkMbit([{ ...body(10, 12, 50_000), transferSize: 290 }])).toBe(0);
    expect(measureLinkMbit([{ ...body(10, 12, 50_000), transferSize: 290 }, body(100, 1100, 200_000)])).toBeCloseTo(
      1.6,
      6,
    );
  });
});

describe('decoderWouldWin: is the decoder worth fetching now, for a later view?', () => {
  // The context layout's d3 (gzip -9 of both formats), as the page's records carry it.
  const d3Context = { jsBytes: 93_434, binastBytes: 73_599, streams: true, preloaded: true, decoderCached: false };

  it('yes on a slow link where a script would go to BinaryAST with the decoder cached (even one preloaded today)', () => {
    expect(decoderWouldWin([d3Context], 1.4)).toBe(true);
  });

  it('no on a fast link, without streaming, or without hints', () => {
    expect(decoderWouldWin([d3Context], 20)).toBe(false);
    expect(decoderWouldWin([{ ...d3Context, streams: false }], 1.4)).toBe(false);
    expect(decoderWouldWin([{ streams: true }], 1.4)).toBe(false);
    expect(decoderWouldWin([], 1.4)).toBe(false);
  });
});

describe('hintedSizes: the sizes of a script the Worker wrote back, from its element', () => {
  it('reads the two byte counts of a hint, whatever the cookies added after them', () => {
    expect(hintedSizes('93434 73599')).toEqual({ jsBytes: 93_434, binastBytes: 73_599 });
    expect(hintedSizes('93434 73599 1.4 1')).toEqual({ jsBytes: 93_434, binastBytes: 73_599 });
  });

  it('gives what the model takes for no hint when there is none', () => {
    for (const hint of [undefined, '', 'garbage', '93434']) {
      const sizes = hintedSizes(hint);
      expect(decoderWouldWin([{ ...sizes, streams: true }], 1.4)).toBe(false);
    }
  });

  it('lets a written-back script count for the decoder like a preloaded one', () => {
    expect(decoderWouldWin([{ ...hintedSizes('93434 73599'), streams: true }], 1.4)).toBe(true);
  });
});

describe('plainKeys: the scripts whose plain JavaScript this view left in the HTTP cache', () => {
  const record = (url: string, outcome: ScriptRecord['outcome'], jsBytes: number | undefined = 700): ScriptRecord => ({
    url,
    outcome,
    mode: 'blocking',
    module: false,
    jsBytes,
  });
  it('keys same-origin scripts with a size hint that ran plain or fell back, by path, query and size', () => {
    const records = [
      record('https://site.test/lib/a.js?v=2', 'plain', 900),
      record('https://site.test/b.js', 'fallback'),
      record('https://site.test/c.js', 'binast'),
      // Answered JavaScript to BinaryAST's Accept: cached apart from a plain request's.
      record('https://site.test/d.js', 'js'),
      record('https://cdn.test/e.js', 'plain'),
      record('https://site.test/f.js', undefined),
      record('', 'plain'),
      // No size hint (the Worker had none, or a written-back script whose element lost it): nothing to key it by.
      { ...record('https://site.test/g.js', 'plain'), jsBytes: undefined },
      record('https://site.test/h.js', 'plain', Number.NaN),
    ];
    expect(plainKeys(records, 'https://site.test')).toEqual([scriptKey('/lib/a.js?v=2', 900), scriptKey('/b.js', 700)]);
  });
});
