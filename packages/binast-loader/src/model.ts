// The cost model: before asking for BinaryAST, is it going to be faster than the plain script? Pure (no DOM), so
// every rule is unit-tested; the loader feeds it what the page knows (see `startLoader` in loader.ts).
import type { ExecutionMode } from './plan';

/** What the loader knows about one script and the page when it finds the script. */
export interface CostInput {
  /** Bytes on the wire of the script as JavaScript and as BinaryAST (the Worker's size hint), when hinted. */
  jsBytes?: number;
  binastBytes?: number;
  /** The decoder is in the browser's cache already (or on its way for an earlier script of this page). */
  decoderCached: boolean;
  /** The page preloads the JavaScript (the Worker does where BinaryAST cannot win on a usual link): it is in flight. */
  preloaded?: boolean;
  /** The page preloads the BinaryAST (`preloadsBinast`): it is in flight, and the loader takes it whatever it weighs. */
  binastPreloaded?: boolean;
  /** Downlink estimate in Mbit/s and round trip in ms (Network Information, else what already loaded). */
  downMbit?: number;
  rttMs?: number;
  /**
   * The browser lets the decoder read the response as it arrives (JavaScript Promise Integration,
   * `WebAssembly.Suspending`): decoding then overlaps the download instead of following it.
   */
  streams?: boolean;
}

/**
 * Why the loader went the way it did: `faster` (BinaryAST asked for: it saves more time than it costs), or the
 * plain script because `no-hint` (the Worker gave no sizes), `larger` (BinaryAST is not smaller on the wire),
 * `no-speed` (no estimate of the connection) or `slower` (the bytes saved take less time than decoding, plus the
 * decoder's download when it is not cached), or `preloaded` (the JavaScript is already on its way: asking for
 * BinaryAST too would download the script twice). `always`: the loader's `data-always` skipped the model.
 * `binast-preloaded`: the model found BinaryAST slower, but the page already preloads it (the Worker decided with
 * slower figures: a cookie's link speed where Network Information now reads a faster one), so the loader takes it
 * rather than download the script twice.
 */
export type Choice =
  | 'faster'
  | 'always'
  | 'no-hint'
  | 'larger'
  | 'no-speed'
  | 'slower'
  | 'preloaded'
  | 'binast-preloaded';

export interface Decision {
  reason: Choice;
  /** Transfer time BinaryAST saves, ms (absent when the model stepped aside before weighing: no hint, no speed…). */
  savedMs?: number;
  /** Time BinaryAST adds: decoding and the lost off-thread compile, plus the decoder's download when cold, ms. */
  costMs?: number;
}

/**
 * The decoder on the wire, gzip -9 (node's zlib): the decode-only Wasm (38,786 B), its interface (binast-wasm.js,
 * 962 B) and the two small modules (binast.js, its Worker: 3,037 B, the Worker now writing the decoded copies),
 * measured on the loader's build output on 2026-11-27 with BinaryAST format 7, the Wasm built without std (38,100 B
 * on 2026-11-26 with format 4; format 5's match models and format 6's base64, hex and decimal numbers added about
 * 5.4 KB, leaving std's panic and formatting code out took 1.4 KB off), bytes.
 */
export const decoderWireBytes = 42_800;
/** Sequential requests before the decoder can run: binast.js, its Worker, the decoder's interface, the Wasm. */
export const decoderRoundTrips = 4;
/**
 * BinaryAST wire bytes the decoder turns into JavaScript per ms in a Chromium Web Worker, regeneration included:
 * 316–445 B/ms over react-dom, d3 and babel (context layout, format 4, `npm run bench:binast` "whole tail" column,
 * 2026-11-25, load 4.4); the slowest, rounded down. Format 5 (2026-11-27, nothing else running): 448–523 B/ms; it
 * does about a quarter more work per wire byte than format 4, so on a machine as loaded as that first run it would
 * read about 250–350: 300 is kept, between the two.
 */
export const decodeWireBytesPerMs = 300;
/**
 * When decoding streams, what is left after the last byte (regenerating the source from the decoded tree), as a
 * share of the whole decode: bench:binast "tail ms" against "whole tail" at 1.6 Mbit/s was 0.12–0.14 for react-dom,
 * d3, angular and babel; taken as 0.15.
 */
export const regenerateShare = 0.15;
/**
 * The decoded source's cost on the page's main thread beyond a plain script's (handing it over, compiling it without
 * V8's streaming), per wire byte: 4–17 ms for d3, angular and react-dom (45–74 KB on the wire) in bench:binast
 * ("main +ms", "inline +ms"), taken as 5,000 B/ms (15 ms for d3).
 */
export const mainThreadWireBytesPerMs = 5_000;

/** Decides whether asking for BinaryAST wins for one script; the numbers in the answer explain why. */
export function decide(input: CostInput): Decision {
  const { jsBytes = 0, binastBytes = 0, downMbit = 0, rttMs = 0 } = input;
  const none = (reason: Choice): Decision => ({ reason });
  if (!(jsBytes > 0 && binastBytes > 0)) return none('no-hint');
  if (binastBytes >= jsBytes) return none('larger');
  if (input.preloaded) return none('preloaded');
  if (!(downMbit > 0)) return none('no-speed');
  // Mbit/s × 125 = bytes per ms.
  const bytesPerMs = downMbit * 125;
  const savedMs = (jsBytes - binastBytes) / bytesPerMs;
  const decodeMs = binastBytes / decodeWireBytesPerMs;
  // Streaming, decoding runs while the bytes arrive: only what outlasts the download, or the regeneration that
  // follows the last byte, is added.
  const costMs =
    Math.max(decodeMs - (input.streams ? binastBytes / bytesPerMs : 0), decodeMs * regenerateShare) +
    binastBytes / mainThreadWireBytesPerMs +
    (input.decoderCached ? 0 : decoderWireBytes / bytesPerMs + decoderRoundTrips * rttMs);
  return {
    reason: savedMs > costMs ? 'faster' : input.binastPreloaded ? 'binast-preloaded' : 'slower',
    savedMs,
    costMs,
  };
}

/**
 * The slowest link the Worker expects BinaryAST to have to beat (the project's mobile profile). Where BinaryAST loses
 * even there with the decoder cached, the Worker preloads the JavaScript so the plain script starts with the HTML.
 */
export const preloadBelowMbit = 1.6;

/**
 * Whether a script with these wire sizes can win on a link of `preloadBelowMbit` or faster (the Worker's preload
 * rule for a visitor it knows nothing about), with the decoder cached but without counting on a streaming decoder.
 * Counting on one would leave scripts unpreloaded that the loader then runs plain after all (a first visit, no
 * streaming, or a link it cannot tell is slow), which cost 10–14 % at 1.6 Mbit/s in bench:loader (2026-11-25): the
 * preload scanner's head start is worth more than the little a streaming decode of today's format saves.
 */
export const mayWin = (jsBytes: number, binastBytes: number) =>
  decide({ jsBytes, binastBytes, decoderCached: true, downMbit: preloadBelowMbit }).reason === 'faster';

/**
 * Cookies through which an earlier view of the site tells the Worker what the loader will find, so that the Worker
 * preloads exactly the scripts the loader is going to run plain. `binast-link=<Mbit/s>`: the throughput the loader
 * measured on the last view (src/remember.ts, once its scripts ran), which the Worker also hands to the loader in
 * each script's size hint, so both decide from the same figure; `binast-decoder=<1|0>`: the
 * decoder's files are in the HTTP cache (written by the decoder when it starts), 1 when this browser decodes while
 * the response streams. Neither says anything about the visitor beyond their connection and browser.
 */
export const linkCookie = 'binast-link';
export const decoderCookie = 'binast-decoder';

/**
 * What the cookies of an earlier view say: the Worker's picture of the visitor. No round trip: the model needs one
 * only for a decoder that is not cached, and then the rule does not ask the cookies.
 */
export interface Visitor {
  downMbit: number;
  decoderCached: boolean;
  streams: boolean;
}

/** Reads `linkCookie` and `decoderCookie` from a `Cookie` header; undefined without a usable link measurement. */
export function readVisitor(cookieHeader: string | null | undefined): Visitor | undefined {
  const link = /(?:^|;\s*)binast-link=(\d{1,5}(?:\.\d{1,3})?)(?:;|$)/.exec(cookieHeader ?? '');
  if (!link) return undefined;
  const decoder = readDecoderCookie(cookieHeader);
  return { downMbit: Number(link[1]), decoderCached: decoder !== undefined, streams: decoder === true };
}

/**
 * What a size hint adds from the visitor's cookies, for the Worker (and the bench server that stands for it) to
 * append to `data-binast-size`: ` <Mbit/s>` an earlier view measured (0: none), then ` 1` when its decoder is in the
 * HTTP cache (the decoder cookie, which the loader does not read itself: see `startLoader`); nothing without either.
 */
export function visitorHint(cookieHeader: string | null | undefined): string {
  const downMbit = readVisitor(cookieHeader)?.downMbit;
  const decoderCached = readDecoderCookie(cookieHeader) !== undefined;
  if (downMbit === undefined && !decoderCached) return '';
  return ` ${downMbit ?? 0}${decoderCached ? ' 1' : ''}`;
}

/**
 * Whether the Worker preloads a script's BinaryAST (`binastFetchPath`) and tells the loader so
 * (`data-binast-fetch`): where the loader is going to ask for it (`runsPlain` false: `shouldPreload`, or `data-always`)
 * with the decoder cached and the link measured (`visitor`, from both cookies: `readVisitor`; the loader then weighs
 * at least that link speed, so it never lacks one), and no earlier view in this browser ran this version of the script plain (`ranPlain`
 * false: `ranPlainBefore`; undefined for a script with `integrity`, which cannot use BinaryAST), so no plain copy can
 * be in the HTTP cache and the loader need not check for one first. The loader then takes that response whatever its
 * own model says (a changed link it reads from Network Information), rather than download the script twice.
 */
export const preloadsBinast = (visitor: Visitor | undefined, runsPlain: boolean, ranPlain?: boolean) =>
  !runsPlain && ranPlain === false && !!visitor?.decoderCached;

/**
 * The query parameter that asks the Worker for a script's BinaryAST by URL instead of by `Accept`: the Worker
 * strips it, then answers as it would `Accept: application/javascript-binast` (BinaryAST, or the JavaScript while
 * none is stored). It exists for `<link rel=preload as=fetch>`, which cannot send an `Accept` of its own and which
 * Chromium hands to a later fetch() of the same URL whatever `Accept` that one sends: where the loader is going to
 * ask for BinaryAST at once, the Worker preloads this URL beside the script, so the request starts when the
 * browser's preload scanner finds it, as a plain script's does, not when the parser reaches the script and the loader
 * registers it (35–60 ms later at 1.6 Mbit/s, 150 ms: bench/loader/probe.mjs --new-deploy, 2026-11-26).
 */
export const binastQuery = '__binast';

/** A script's path and query with `binastQuery` appended (the form the Worker strips again). */
export const binastFetchPath = (pathAndQuery: string) =>
  `${pathAndQuery}${pathAndQuery.includes('?') ? '&' : '?'}${binastQuery}`;

/**
 * `binast-plain=<key>.<key>…`: the scripts (`scriptKey` of their path, query and JavaScript size) that recent views
 * of the site ran as plain JavaScript, newest first, at most `plainCookieKeys` of them; written by remember.ts.
 * A listed script's plain copy is most likely in the HTTP cache: the Worker then gives the page the plain script
 * (`shouldPreload`), which costs nothing to download, where the loader used to import the decoder and check the
 * cache first (1.16× the plain page's time on a repeat view at 1.6 Mbit/s, 150 ms: bench:loader, 2026-11-26).
 * A script not listed was not downloaded as JavaScript by the loader's views in this browser, so its plain copy is
 * not in the HTTP cache and BinaryAST can be asked for at once (`preloadsBinast`), without the loader's check (whose
 * answer reached the page's main thread 25–50 ms late while the page parses and paints: probe.mjs --new-deploy).
 * The size in the key tells a new deploy at the same URL from the copy the earlier view cached. A key collision,
 * an evicted copy or a script cached some other way only costs that check, one download of BinaryAST, or the plain
 * download BinaryAST would have beaten; never a wrong script.
 */
export const plainCookie = 'binast-plain';
/** How many scripts the plain-script cookie remembers: 16 keys of at most 7 characters, about 130 bytes. */
export const plainCookieKeys = 16;

/** A script's key in the plain-script cookie: FNV-1a (32 bit) of its path and query and its size hint's JavaScript bytes, base 36. */
export function scriptKey(pathAndQuery: string, jsBytes: number): string {
  const text = `${pathAndQuery} ${jsBytes}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/**
 * Whether the plain-script cookie's keys (`readPlainCookie`, read once per page) list this version of a script: an
 * earlier view ran it as plain JavaScript.
 */
export const ranPlainBefore = (plainKeys: readonly string[], pathAndQuery: string, jsBytes: number) =>
  plainKeys.includes(scriptKey(pathAndQuery, jsBytes));

/** The keys of the plain-script cookie (none without it, or when malformed). */
export function readPlainCookie(cookieHeader: string | null | undefined): string[] {
  const match = /(?:^|;\s*)binast-plain=([0-9a-z]{1,7}(?:\.[0-9a-z]{1,7}){0,63})(?:;|$)/.exec(cookieHeader ?? '');
  return match?.[1] ? match[1].split('.') : [];
}

/** The plain-script cookie's next value: `ranPlain` first, then the earlier keys, no repeats, at most `plainCookieKeys`. */
export function mergePlainKeys(ranPlain: readonly string[], earlier: readonly string[]): string {
  return [...new Set([...ranPlain, ...earlier])].slice(0, plainCookieKeys).join('.');
}

/**
 * `decoderCookie` alone (it lives a week, the link cookie a day): undefined without it, else whether the browser
 * decodes while the response streams.
 */
export function readDecoderCookie(cookieHeader: string | null | undefined): boolean | undefined {
  const decoder = /(?:^|;\s*)binast-decoder=([01])(?:;|$)/.exec(cookieHeader ?? '');
  return decoder ? decoder[1] === '1' : undefined;
}

/**
 * The Worker's preload rule: preload the JavaScript of every script the loader is going to run plain, so it starts
 * with the HTML as a plain `<script src>` would. That is every script an earlier view in this browser ran plain
 * (`ranPlain`, from `ranPlainBefore`): its copy in the HTTP cache beats any download. For a visitor whose earlier view
 * left its cookies, it is the loader's own decision with what the cookies say (the loader gets the same link speed in
 * the size hint); for anyone else, every script that cannot win even on a slow link with the decoder cached (`mayWin`).
 */
export function shouldPreload(jsBytes: number, binastBytes: number, visitor?: Visitor, ranPlain = false): boolean {
  if (ranPlain) return true;
  if (!visitor?.decoderCached) return !mayWin(jsBytes, binastBytes);
  return decide({ jsBytes, binastBytes, ...visitor }).reason !== 'faster';
}

/**
 * The Worker's second rule, fed every opt-in script of a page in document order: whether it writes the script back
 * as the plain `<script src>` it stands for, parser-inserted, instead of leaving it to the loader with a preload.
 * The browser then runs it exactly as on a page without the loader: found by the preload scanner, parser-blocking,
 * its compile streamed, DOMContentLoaded after it. A loader-inserted script, even preloaded, waited for the loader's
 * own request and for the parser to hand it over (after the first layout and paint of the page, which the plain
 * page does not pay before its scripts), then ran in tasks of its own: 1.10–1.12× the plain page's time to "all
 * libraries executed" on first visits at 10 and 100 Mbit/s in bench:loader (2026-11-25).
 * Only scripts the loader would run plain anyway (`runsPlain`: `shouldPreload`), and only classic blocking ones that
 * no blocking script the loader still runs precedes: that one would run after the parser-inserted script, out of
 * order. Deferred and module scripts run before DOMContentLoaded natively but after it through the loader, so one
 * written back could run ahead of a loader-run blocking script anywhere in the page; async ones stay with the loader,
 * which inserts them the moment it finds them (its 2 KB had no room to record them as written back).
 */
export function nativeScriptRule(): (script: { runsPlain: boolean; mode: ExecutionMode }) => boolean {
  let loaderRunsBlocking = false;
  return ({ runsPlain, mode }) => {
    if (mode !== 'blocking') return false;
    if (!runsPlain) loaderRunsBlocking = true;
    return runsPlain && !loaderRunsBlocking;
  };
}

/** A script `type` the browser runs as JavaScript: none, `module`, or a JavaScript MIME type (HTML's list). */
export const runsAsJavaScript = (type: string) =>
  /^(module|(text|application)\/(x-)?(java|ecma|j|live)script(1\.[0-5])?)?$/.test(type.trim().toLowerCase());

/** The loader's own file (`binast-loader.min.js`, `binast-loader.js`, …) by its name in a script's `src`. */
export const isLoaderSrc = (src: string) => /(^|\/)binast-loader[\w.-]*\.js([?#]|$)/.test(src.trim());

/**
 * The Worker's third rule: where the loader's own tag goes. A parser-blocking loader tag in `<head>` costs every view
 * its evaluation and an observer callback per parser batch before the first library runs (≈ 3.4 ms per view,
 * bench/loader/README.md "Repeat views"), and on a view whose opt-in scripts were all written back it has nothing to
 * do but record them, which it can do as well from a later place: its first scan finds them. So the Worker moves the
 * tag down to just before the first script that may need the loader to have run — an opt-in script it did not
 * write back, or any other script that runs JavaScript (it may read `binast.ready` or call `binast.scan()`) — and,
 * when there is none, to the end of the body. Only a parser-blocking `<script src>` is moved (an `async` or `defer`
 * tag blocks nothing, an inlined loader has no `src` to re-emit), and only the first one; `isLoader` tells the
 * loader's `src` (by default its file name; the Worker adds the URL its rewrite inserts). Fed every `<script>` in
 * document order: `hold` for each script that is not opt-in (true: the caller removes that element, the loader's
 * tag, and `html` is what re-emits it), `before` for each script held back or not (the HTML to insert in front of it),
 * and `end` once the body or the document ends.
 */
export function loaderTagPlacement(isLoader: (src: string) => boolean = isLoaderSrc) {
  let held = '';
  let moved = false;
  const end = () => {
    const out = held;
    held = '';
    return out;
  };
  return {
    hold(tag: { src: string; type: string; async: boolean; defer: boolean }, html: () => string): boolean {
      const type = tag.type.trim().toLowerCase();
      if (moved || tag.async || tag.defer || type === 'module' || !runsAsJavaScript(type) || !isLoader(tag.src))
        return false;
      moved = true;
      held = html();
      return true;
    },
    before(script: { type: string; writtenBack: boolean }): string {
      const type = script.type.trim().toLowerCase();
      const needsLoader = type === 'binast' || type === 'binast-module' || runsAsJavaScript(type);
      return script.writtenBack || !needsLoader ? '' : end();
    },
    end,
  };
}
