import { describe, expect, it } from 'vitest';
import {
  binastFetchPath,
  binastQuery,
  type CostInput,
  decide,
  decoderRoundTrips,
  decoderWireBytes,
  decodeWireBytesPerMs,
  isLoaderSrc,
  loaderTagPlacement,
  mainThreadWireBytesPerMs,
  mayWin,
  mergePlainKeys,
  nativeScriptRule,
  plainCookieKeys,
  preloadsBinast,
  ranPlainBefore,
  readPlainCookie,
  readVisitor,
  regenerateShare,
  runsAsJavaScript,
  scriptKey,
  shouldPreload,
  visitorHint,
} from '../src/model';
import type { ExecutionMode } from '../src/plan';

// d3 on the wire (gzip -9 of the JavaScript): in the earlier optimised layout (larger), in the context layout
// (0.79×), and in a hypothetical format at 0.4×.
const d3 = { jsBytes: 93_434, binastBytes: 107_370 };
const d3Context = { jsBytes: 93_434, binastBytes: 73_599 };
const d3At04 = { jsBytes: 93_434, binastBytes: 37_374 };
const slow = { downMbit: 1.6, rttMs: 150 };
const medium = { downMbit: 10, rttMs: 40 };
const fast = { downMbit: 100, rttMs: 10 };

const input = (overrides: Partial<CostInput>): CostInput => ({ decoderCached: true, ...d3At04, ...slow, ...overrides });

describe('decide: the plain script whenever BinaryAST cannot be shown to win', () => {
  it('steps aside without a size hint, whatever else is known', () => {
    expect(decide(input({ jsBytes: undefined, binastBytes: undefined }))).toEqual({ reason: 'no-hint' });
    expect(decide(input({ binastBytes: undefined })).reason).toBe('no-hint');
    expect(decide(input({ jsBytes: undefined })).reason).toBe('no-hint');
  });

  it('treats a broken hint (zero, negative, NaN from a malformed attribute) as no hint', () => {
    for (const [jsBytes, binastBytes] of [
      [0, 1000],
      [1000, 0],
      [-5, 10],
      [Number.NaN, 10],
      [10, Number.NaN],
    ]) {
      expect(decide(input({ jsBytes, binastBytes })).reason).toBe('no-hint');
    }
  });

  it('steps aside when BinaryAST is not smaller on the wire, on every link, cached decoder or not', () => {
    for (const link of [slow, medium, fast]) {
      for (const decoderCached of [true, false]) {
        expect(decide(input({ ...d3, ...link, decoderCached })).reason).toBe('larger');
      }
    }
    expect(decide(input({ jsBytes: 5000, binastBytes: 5000 })).reason).toBe('larger');
  });

  it('steps aside when the connection is unknown (no Network Information, nothing large loaded yet)', () => {
    expect(decide(input({ downMbit: undefined })).reason).toBe('no-speed');
    expect(decide(input({ downMbit: 0 })).reason).toBe('no-speed');
    expect(decide(input({ downMbit: Number.NaN })).reason).toBe('no-speed');
  });

  it('steps aside on fast links, where the bytes saved take less time than decoding', () => {
    const decision = decide(input({ ...fast }));
    expect(decision.reason).toBe('slower');
    expect(decision.savedMs).toBeLessThan(decision.costMs ?? Number.NaN);
  });

  it('steps aside on a cold visit when the decoder download outweighs the bytes saved', () => {
    const decision = decide(input({ decoderCached: false, jsBytes: 20_000, binastBytes: 16_000 }));
    expect(decision.reason).toBe('slower');
    // 36.9 KB of decoder at 200 B/ms plus four round trips of 150 ms, plus decoding 16 KB and its main-thread cost.
    expect(decision.costMs).toBeCloseTo(
      decoderWireBytes / 200 +
        decoderRoundTrips * 150 +
        16_000 / decodeWireBytesPerMs +
        16_000 / mainThreadWireBytesPerMs,
    );
  });
});

describe('decide: BinaryAST when it saves more than it costs', () => {
  it('asks for BinaryAST on a slow link with the decoder cached and a format at 0.4× the JavaScript', () => {
    const decision = decide(input({}));
    expect(decision.reason).toBe('faster');
    // 56,060 bytes saved at 1.6 Mbit/s = 200 bytes per ms.
    expect(decision.savedMs).toBeCloseTo((93_434 - 37_374) / 200);
    expect(decision.costMs).toBeCloseTo(37_374 / decodeWireBytesPerMs + 37_374 / mainThreadWireBytesPerMs);
  });

  it('steps aside for the context layout at 0.79× on a slow link when decoding must wait for the last byte', () => {
    const decision = decide(input({ ...d3Context }));
    expect(decision.reason).toBe('slower');
    expect(decision.savedMs).toBeCloseTo((93_434 - 73_599) / 200);
  });

  it('asks for it when the decoder reads the response as it arrives: only the regeneration after the last byte is added', () => {
    const decision = decide(input({ ...d3Context, streams: true }));
    expect(decision.reason).toBe('faster');
    // Decoding (245 ms) hides behind the download (368 ms at 200 B/ms).
    expect(decision.costMs).toBeCloseTo(
      (73_599 / decodeWireBytesPerMs) * regenerateShare + 73_599 / mainThreadWireBytesPerMs,
    );
  });

  it('adds what outlasts the download when the decoder streams on a link faster than it decodes', () => {
    const decision = decide(input({ ...d3Context, ...medium, streams: true }));
    expect(decision.reason).toBe('slower');
    // 10 Mbit/s = 1,250 B/ms: 245 ms of decoding, 59 ms of it during the download.
    expect(decision.costMs).toBeCloseTo(
      73_599 / decodeWireBytesPerMs - 73_599 / 1250 + 73_599 / mainThreadWireBytesPerMs,
    );
  });

  it('counts the decoder download and its round trips only when the decoder is not cached', () => {
    const cached = decide(input({ decoderCached: true }));
    const cold = decide(input({ decoderCached: false }));
    expect((cold.costMs ?? Number.NaN) - (cached.costMs ?? Number.NaN)).toBeCloseTo(
      decoderWireBytes / 200 + decoderRoundTrips * 150,
    );
    expect(cold.reason).toBe('slower');
  });

  it('pays the decoder on a cold visit only for scripts large enough to amortise it', () => {
    const big = { jsBytes: 1_000_000, binastBytes: 300_000 };
    expect(decide(input({ ...big, decoderCached: false })).reason).toBe('faster');
  });

  it('prefers the plain script at the break-even point (a tie costs a decode for nothing)', () => {
    // Saved = cost: (js - binast) / 200 = binast / 300 + binast / 5000  <=>  js = 1.70667 × binast.
    expect(decide(input({ jsBytes: 170_600, binastBytes: 100_000 })).reason).toBe('slower');
    expect(decide(input({ jsBytes: 170_700, binastBytes: 100_000 })).reason).toBe('faster');
  });

  it('follows the link: the same script wins on a slow link and loses on a fast one', () => {
    const sizes = { jsBytes: 100_000, binastBytes: 30_000 };
    expect(decide(input({ ...sizes, ...slow })).reason).toBe('faster');
    // 10 Mbit/s: 56 ms saved against 106 ms of decoding and main-thread work.
    expect(decide(input({ ...sizes, ...medium })).reason).toBe('slower');
    expect(decide(input({ ...sizes, ...fast })).reason).toBe('slower');
    // 10 Mbit/s, a format at 0.1×: 72 ms saved against 35 ms.
    expect(decide(input({ jsBytes: 100_000, binastBytes: 10_000, ...medium })).reason).toBe('faster');
  });

  it('ignores the round trip when the decoder is cached (no extra request)', () => {
    expect(decide(input({ rttMs: 10_000 })).costMs).toBe(decide(input({ rttMs: 0 })).costMs);
    expect(decide(input({ rttMs: undefined })).reason).toBe('faster');
  });
});

describe("the preloaded JavaScript, and the Worker's preload rule", () => {
  it('runs the plain script when the page preloads it, however much BinaryAST would save', () => {
    expect(decide(input({ preloaded: true })).reason).toBe('preloaded');
    expect(decide(input({ preloaded: true, jsBytes: 1_000_000, binastBytes: 10_000 })).reason).toBe('preloaded');
    // A larger BinaryAST is reported as such first: that is why the Worker preloaded it.
    expect(decide(input({ preloaded: true, ...d3 })).reason).toBe('larger');
  });

  it('takes the BinaryAST the page preloads even where it weighs slower, with the figures that say so', () => {
    // The Worker decided from the cookie's slow link; Network Information now reads a fast one.
    const decision = decide(input({ binastPreloaded: true, ...d3Context, ...fast }));
    expect(decision.reason).toBe('binast-preloaded');
    expect(decision.savedMs).toBeLessThan(decision.costMs ?? 0);
    // Where it wins anyway, the reason stays `faster`; nothing changes for a larger one.
    expect(decide(input({ binastPreloaded: true })).reason).toBe('faster');
    expect(decide(input({ binastPreloaded: true, ...d3 })).reason).toBe('larger');
  });

  it('preloads (mayWin false) exactly where the model at 1.6 Mbit/s with a cached, not streaming decoder would not pick BinaryAST', () => {
    expect(mayWin(d3.jsBytes, d3.binastBytes)).toBe(false);
    expect(mayWin(d3Context.jsBytes, d3Context.binastBytes)).toBe(false);
    expect(mayWin(d3At04.jsBytes, d3At04.binastBytes)).toBe(true);
    // The break-even at 200 bytes per ms is js = 1.70667 × binast (see above).
    expect(mayWin(170_600, 100_000)).toBe(false);
    expect(mayWin(170_700, 100_000)).toBe(true);
  });
});

describe('the visitor an earlier view describes in its cookies, and the preload rule for them', () => {
  it('reads the link speed and the decoder mark among other cookies', () => {
    expect(readVisitor('a=1; binast-link=1.4; binast-decoder=1; b=2')).toEqual({
      downMbit: 1.4,
      decoderCached: true,
      streams: true,
    });
    expect(readVisitor('binast-decoder=0;binast-link=52.0')).toEqual({
      downMbit: 52,
      decoderCached: true,
      streams: false,
    });
    expect(readVisitor('binast-link=3')).toEqual({ downMbit: 3, decoderCached: false, streams: false });
  });

  it('knows nothing without a well-formed link cookie', () => {
    for (const header of [
      null,
      undefined,
      '',
      'binast-decoder=1',
      'binast-link=',
      'binast-link=fast',
      'binast-link=1.4x',
      'xbinast-link=1.4',
      'binast-link=123456',
      'binast-link=-1',
    ])
      expect(readVisitor(header)).toBeUndefined();
    // A malformed decoder mark is no mark.
    expect(readVisitor('binast-link=1.4; binast-decoder=yes')?.decoderCached).toBe(false);
  });

  it('without a cached decoder (or any cookie) falls back to mayWin', () => {
    for (const visitor of [undefined, { downMbit: 1.4, decoderCached: false, streams: true }]) {
      expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, visitor)).toBe(
        !mayWin(d3Context.jsBytes, d3Context.binastBytes),
      );
      expect(shouldPreload(d3At04.jsBytes, d3At04.binastBytes, visitor)).toBe(false);
    }
  });

  it("with the decoder cached, preloads exactly what the loader's model will run plain on the measured link", () => {
    const slowStreaming = { downMbit: 1.4, decoderCached: true, streams: true };
    // The context layout's d3 wins on a slow link once decoding overlaps the download …
    expect(decide({ ...d3Context, ...slowStreaming }).reason).toBe('faster');
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, slowStreaming)).toBe(false);
    // … not without streaming, nor on a fast link, nor when it is not smaller.
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, { ...slowStreaming, streams: false })).toBe(true);
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, { ...slowStreaming, downMbit: 50 })).toBe(true);
    expect(shouldPreload(d3.jsBytes, d3.binastBytes, slowStreaming)).toBe(true);
    // A measured 0 (nothing large enough came over the network) is no speed: preload.
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, { ...slowStreaming, downMbit: 0 })).toBe(true);
  });

  it('preloads a script an earlier view ran plain, whatever the link: its cached copy beats any download', () => {
    const slowStreaming = { downMbit: 1.4, decoderCached: true, streams: true };
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, slowStreaming, true)).toBe(true);
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, undefined, true)).toBe(true);
    expect(shouldPreload(d3Context.jsBytes, d3Context.binastBytes, slowStreaming, false)).toBe(false);
  });
});

describe('which opt-in scripts the Worker writes back as plain <script src>', () => {
  const feed = (scripts: { runsPlain: boolean; mode: ExecutionMode }[]) => scripts.map(nativeScriptRule());
  const plain = (mode: ExecutionMode) => ({ runsPlain: true, mode });
  const loaderRuns = (mode: ExecutionMode) => ({ runsPlain: false, mode });

  it('writes back every blocking script the loader would run plain', () => {
    expect(feed([plain('blocking'), plain('blocking'), plain('blocking')])).toEqual([true, true, true]);
  });

  it('stops at the first blocking script the loader runs, so none overtakes it', () => {
    expect(feed([plain('blocking'), loaderRuns('blocking'), plain('blocking')])).toEqual([true, false, false]);
  });

  it('leaves deferred and async scripts to the loader without holding back later blocking ones', () => {
    expect(feed([plain('defer'), loaderRuns('defer'), plain('async'), loaderRuns('async'), plain('blocking')])).toEqual(
      [false, false, false, false, true],
    );
  });

  it('starts afresh for every page', () => {
    expect(feed([loaderRuns('blocking')])).toEqual([false]);
    expect(feed([plain('blocking')])).toEqual([true]);
  });
});

describe('visitorHint: what the Worker appends to a size hint from the cookies', () => {
  it('gives the measured link, then 1 when the decoder is cached; nothing without either cookie', () => {
    expect(visitorHint(undefined)).toBe('');
    expect(visitorHint('theme=dark')).toBe('');
    expect(visitorHint('binast-link=12.5')).toBe(' 12.5');
    expect(visitorHint('binast-link=1.6; binast-decoder=0')).toBe(' 1.6 1');
    // The decoder cookie lives a week, the link cookie a day: 0 stands for "no link measured".
    expect(visitorHint('binast-decoder=1')).toBe(' 0 1');
  });
});

describe('preloadsBinast: where the Worker preloads BinaryAST by its own URL', () => {
  it('only for a script the loader will ask BinaryAST for, with the decoder cached and no plain copy cached', () => {
    const visitor = readVisitor('binast-link=1.5; binast-decoder=1');
    expect(preloadsBinast(visitor, false, false)).toBe(true);
    // The loader runs it plain; or an earlier view ran it plain; or it has integrity (unknown).
    expect(preloadsBinast(visitor, true, false)).toBe(false);
    expect(preloadsBinast(visitor, false, true)).toBe(false);
    expect(preloadsBinast(visitor, false, undefined)).toBe(false);
    // No decoder cached: the loader's model will not ask for BinaryAST early on its own.
    expect(preloadsBinast(readVisitor('binast-link=1.5'), false, false)).toBe(false);
    // No link measured: the loader could lack a speed (no Network Information) and run the plain script.
    expect(preloadsBinast(readVisitor('binast-decoder=1'), false, false)).toBe(false);
  });

  it('appends the query parameter the Worker strips again', () => {
    expect(binastFetchPath('/lib/a.js')).toBe(`/lib/a.js?${binastQuery}`);
    expect(binastFetchPath('/lib/a.js?v=2')).toBe(`/lib/a.js?v=2&${binastQuery}`);
  });
});

describe('the plain-script cookie: which scripts recent views ran as JavaScript', () => {
  it('keys a path, query and JavaScript size by a short, stable hash', () => {
    expect(scriptKey('/lib/a.js', 100)).toBe(scriptKey('/lib/a.js', 100));
    expect(scriptKey('/lib/a.js', 100)).not.toBe(scriptKey('/lib/a.js?v=2', 100));
    // A new deploy at the same URL (another size) is another script.
    expect(scriptKey('/lib/a.js', 100)).not.toBe(scriptKey('/lib/a.js', 101));
    expect(scriptKey('', 0)).toMatch(/^[0-9a-z]{1,7}$/);
    for (let i = 0; i < 200; i++) expect(scriptKey(`/s${i}.js`, i)).toMatch(/^[0-9a-z]{1,7}$/);
  });

  it('tells whether an earlier view ran this version of a script plain', () => {
    const cookies = `binast-link=1.5; binast-plain=${scriptKey('/lib/a.js?v=1', 900)}.${scriptKey('/b.js', 50)}`;
    const keys = readPlainCookie(cookies);
    expect(ranPlainBefore(keys, '/lib/a.js?v=1', 900)).toBe(true);
    expect(ranPlainBefore(keys, '/b.js', 50)).toBe(true);
    expect(ranPlainBefore(keys, '/lib/a.js?v=2', 900)).toBe(false);
    expect(ranPlainBefore(keys, '/b.js', 51)).toBe(false);
    expect(ranPlainBefore(readPlainCookie('binast-link=1.5'), '/b.js', 50)).toBe(false);
    expect(ranPlainBefore(readPlainCookie(undefined), '/b.js', 50)).toBe(false);
  });

  it('reads the keys, and nothing from a malformed or missing cookie', () => {
    expect(readPlainCookie('a=1; binast-plain=abc.12z; b=2')).toEqual(['abc', '12z']);
    expect(readPlainCookie('binast-plain=abc')).toEqual(['abc']);
    for (const header of [
      undefined,
      null,
      '',
      'binast-plain=',
      'binast-plain=ABC',
      'binast-plain=a..b',
      'binast-plain=12345678',
    ])
      expect(readPlainCookie(header)).toEqual([]);
  });

  it('puts the newest first, drops repeats and keeps at most plainCookieKeys', () => {
    expect(mergePlainKeys(['c', 'a'], ['a', 'b'])).toBe('c.a.b');
    const many = Array.from({ length: 40 }, (_, i) => i.toString(36));
    expect(mergePlainKeys(['new'], many).split('.')).toEqual(['new', ...many.slice(0, plainCookieKeys - 1)]);
    expect(readPlainCookie(`binast-plain=${mergePlainKeys(['new'], many)}`)).toHaveLength(plainCookieKeys);
  });
});

describe("loaderTagPlacement: where the Worker moves the loader's own tag", () => {
  const loader = { src: '/binast/binast-loader.min.js', type: '', async: false, defer: false };
  const html = '<script src="/binast/binast-loader.min.js"></script>';

  it('knows the JavaScript types and the loader by its file name', () => {
    for (const type of ['', ' Module ', 'text/javascript', 'application/x-javascript', 'text/javascript1.5'])
      expect(runsAsJavaScript(type)).toBe(true);
    for (const type of ['binast', 'application/json', 'application/ld+json', 'importmap', 'text/template'])
      expect(runsAsJavaScript(type)).toBe(false);
    for (const src of [
      '/binast/binast-loader.min.js',
      'binast-loader.js?v=3',
      'https://cdn.example/binast-loader.min.js#x',
    ])
      expect(isLoaderSrc(src)).toBe(true);
    for (const src of ['/binast/binast.js', '/js/my-binast-loader.min.js', '/binast-loader.min.json', ''])
      expect(isLoaderSrc(src)).toBe(false);
  });

  it('holds the first parser-blocking loader tag and gives it back before the first script that may need it', () => {
    const placement = loaderTagPlacement();
    expect(placement.hold(loader, () => html)).toBe(true);
    // A second loader tag is just another script: the first comes back in front of it.
    expect(placement.hold(loader, () => 'second')).toBe(false);
    expect(placement.before({ type: '', writtenBack: true })).toBe('');
    expect(placement.before({ type: 'application/ld+json', writtenBack: false })).toBe('');
    expect(placement.before({ type: 'binast', writtenBack: false })).toBe(html);
    expect(placement.before({ type: 'binast', writtenBack: false })).toBe('');
    expect(placement.end()).toBe('');
    for (const type of ['', 'module', 'binast-module']) {
      const other = loaderTagPlacement();
      other.hold(loader, () => html);
      expect(other.before({ type, writtenBack: false })).toBe(html);
    }
  });

  it('gives it back at the end when every script was written back', () => {
    const placement = loaderTagPlacement();
    placement.hold(loader, () => html);
    expect(placement.before({ type: '', writtenBack: true })).toBe('');
    expect(placement.end()).toBe(html);
    expect(placement.end()).toBe('');
  });

  it('takes another test for the loader when given one', () => {
    const placement = loaderTagPlacement((src) => src === '/assets/ldr.js');
    expect(placement.hold({ ...loader, src: '/binast/binast-loader.min.js' }, () => html)).toBe(false);
    expect(placement.hold({ ...loader, src: '/assets/ldr.js' }, () => 'ldr')).toBe(true);
    expect(placement.end()).toBe('ldr');
  });

  it('leaves async, deferred, module and inlined loader tags, and other scripts, where they are', () => {
    for (const tag of [
      { ...loader, async: true },
      { ...loader, defer: true },
      { ...loader, type: 'module' },
      { ...loader, type: 'application/json' },
      { ...loader, src: '' },
      { ...loader, src: '/js/app.js' },
    ]) {
      const placement = loaderTagPlacement();
      expect(placement.hold(tag, () => html)).toBe(false);
      expect(placement.end()).toBe('');
    }
  });
});
