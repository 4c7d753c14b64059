import type { DecoderModule, RememberModule, Runner } from './decoder';
import { patchLateListeners, runPlain } from './execute';
import { type CostInput, decide } from './model';
import { planScript } from './plan';
import { measure, type ScriptRecord } from './record';
import { createScheduler } from './scheduler';

export interface LoaderOptions {
  /**
   * Absolute URL of the decoder's ES module (`binast.js`, see src/decoder.ts), imported once a script goes to
   * BinaryAST; `binast-remember.js` is resolved beside it.
   */
  decoderUrl: string;
  /**
   * Off by default. When set, the records are POSTed there once with `navigator.sendBeacon` when the page hides (a
   * page that hides before its load event sends nothing).
   */
  beaconUrl?: string;
  /** CSP nonce given to every script and preload the loader inserts; when empty, each opt-in element's own nonce. */
  nonce?: string;
  /** Ask for BinaryAST whatever the cost model says (to experiment and to test the decoding path). */
  always?: boolean;
}

export interface BinastLoader {
  /** One record per opted-in script, in discovery order, filled in as scripts load. */
  readonly records: ScriptRecord[];
  /** Resolves with the records once every script found before DOMContentLoaded has executed or failed. */
  readonly ready: Promise<ScriptRecord[]>;
  /** Picks up `<script type="binast">` elements added after DOMContentLoaded (they run as async scripts). */
  scan(): void;
}

/** Starts loading every opted-in script of the document; call once, as early as possible (in `<head>`). */
export function startLoader(options: LoaderOptions): BinastLoader {
  const records: ScriptRecord[] = [];
  const seen = new WeakSet<Element>();
  const scheduler = createScheduler();
  let parsed = false;
  // Once a script of this page goes to BinaryAST the decoder is paid for, so later ones count it as cached. Whether an
  // earlier view left it in the HTTP cache comes with each size hint, from the Worker's reading of the decoder cookie
  // (the same figure its preload rule used); not from localStorage: the first read of a page's storage is a
  // synchronous round trip to the browser process, 1–75 ms measured on this machine, while the parser waits for
  // the loader.
  let decoderCached = false;
  // Until a blocking script goes to BinaryAST, plain blocking scripts can start at once and keep their order by
  // themselves (inserted with async=false), with V8 streaming their compile; after one, they wait for their turn.
  let inOrder = true;
  let unpatch: (() => void) | undefined;

  const register = (script: HTMLScriptElement) => {
    const plan =
      !seen.has(script) &&
      (planScript(script, parsed) ||
        // A plain script the Worker wrote back, its size hint kept (model.ts `nativeScriptRule`: blocking ones only):
        // the browser runs it, the loader only records it.
        (script.dataset.binastSize &&
          ({ module: false, mode: 'blocking', outcome: 'plain', reason: 'native' } as const)));
    if (!plan) return;
    seen.add(script);
    const url = script.src;
    const record: ScriptRecord = { url, ...plan };
    records.push(record);
    if (record.reason) return;
    // A script left to the loader may add listeners for events that have fired by the time it runs: patched from the
    // first such script until all have run. Not before: on a page whose scripts the Worker all wrote back, patching
    // at start took the loader's evaluation from 2.30 to 2.65 ms (bench/loader/README.md, "Repeat views").
    if (!parsed) unpatch ??= patchLateListeners();
    // Without any nonce this is undefined, which the DOM stores as the nonce "undefined": harmless, no CSP matches it.
    const nonce = (options.nonce || script.nonce) as string;
    const finish = (outcome: ScriptRecord['outcome'], ok: boolean, startMs: number) => {
      record.executeMs = measure('binast:execute', startMs);
      // Bytes on the wire from the newest Resource Timing entry of the URL (only resource entries carry a script's
      // URL as their name; the loader's own measures are named binast:*).
      record.transferBytes = (
        performance.getEntriesByName(url).pop() as PerformanceResourceTiming | undefined
      )?.transferSize;
      record.outcome = ok ? outcome : 'error';
      script.dispatchEvent(new Event(ok ? 'load' : 'error'));
      return ok;
    };
    const fallback = (reason: ScriptRecord['reason'], outcome: ScriptRecord['outcome'] = 'fallback'): Runner => {
      record.reason = reason;
      // The plain script is inserted only when its turn comes; preloading now keeps the downloads parallel, as the
      // browser's preload scanner would have made them.
      document.head.append(
        Object.assign(document.createElement('link'), {
          rel: record.module ? 'modulepreload' : 'preload',
          as: 'script',
          href: url,
          crossOrigin: script.crossOrigin,
          integrity: script.integrity,
          nonce,
        }),
      );
      return async () => {
        const startMs = performance.now();
        return finish(outcome, await runPlain(script, url, record.module, nonce), startMs);
      };
    };
    // "<js bytes> <binast bytes>[ <Mbit/s an earlier view measured>[ 1: its decoder is cached]]" (size-hint.ts).
    const hint = script.dataset.binastSize?.split(' ').map(Number) ?? [];
    // The URL of this script's BinaryAST the Worker preloads, if it does (`data-binast-fetch`).
    const fetchUrl = script.dataset.binastFetch;
    // What the page knows about its connection: the faster of Network Information (Chromium caps `downlink` at
    // 10 Mbit/s, rounds it, and keeps an old estimate for a while) and what an earlier view of the site measured
    // (src/remember.ts), which the Worker read from its cookie and wrote into the size hint after deciding its
    // preloads with it. The faster, because taking a fast link for a slow one costs far more than the other way
    // round. The round trip from Network Information, else the navigation's request-to-first-byte time.
    const known = (navigator as { connection?: { downlink?: number; rtt?: number } }).connection;
    const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
    const input: CostInput = {
      jsBytes: hint[0],
      binastBytes: hint[1],
      decoderCached: decoderCached || !!hint[3],
      preloaded: script.dataset.binastPreloaded != null,
      binastPreloaded: !!fetchUrl,
      // JavaScript Promise Integration lets the decoder read the response as it arrives (model.ts `streams`).
      streams: !!(self.WebAssembly as { Suspending?: unknown } | undefined)?.Suspending,
      downMbit: Math.max(known?.downlink ?? 0, hint[2] || 0),
      rttMs: known?.rtt ?? (navigation && navigation.responseStart - navigation.requestStart),
    };
    // With `always` the record keeps the model's figures: what it would have weighed.
    const { reason } = Object.assign(record, input, decide(input), options.always && { reason: 'always' });
    // A runner, or the promise of one while the decoder prepares it.
    let prepared: Runner | Promise<Runner>;
    if (reason === 'faster' || reason === 'always' || reason === 'binast-preloaded') {
      decoderCached = true;
      if (plan.mode === 'blocking') inOrder = false;
      // The Worker preloads this script's BinaryAST (model.ts `preloadsBinast`): no earlier view in this browser ran
      // it plain, so no plain copy can be in the HTTP cache. Its URL is fetched now, taking the preload over, while
      // the decoder module loads; not after it and a cache check.
      const early = fetchUrl && fetch(fetchUrl);
      // SRI pins the JavaScript bytes: BinaryAST cannot satisfy it.
      prepared = script.integrity
        ? fallback('integrity')
        : import(/* @vite-ignore */ options.decoderUrl).then(
            (decoder: DecoderModule) => decoder.prepareScript({ script, url, record, nonce, fallback, finish, early }),
            () => fallback('decoder'),
          );
    } else if (plan.mode === 'async' || (plan.mode === 'blocking' && inOrder)) {
      // The plain script, now: the browser downloads (or takes the preload the Worker put in the page), streams and
      // runs it as it would a parser-inserted one.
      const startMs = performance.now();
      const ran = runPlain(script, url, plan.module, nonce, plan.mode === 'blocking').then((ok) =>
        finish('plain', ok, startMs),
      );
      prepared = () => ran;
    } else {
      prepared = fallback(reason, 'plain');
    }
    void scheduler.add(plan.mode, async () => (await prepared)());
  };

  // `document.scripts` is a live list of script elements only, cheap enough to rescan on every parser batch.
  const scan = () => {
    for (const script of document.scripts) register(script);
  };
  const observer = new MutationObserver(scan);
  const onParsed = () => {
    scan();
    observer.disconnect();
    parsed = true;
    scheduler.parsingDone();
  };
  scan();
  if (document.readyState === 'loading') {
    observer.observe(document, { childList: true, subtree: true });
    document.addEventListener('DOMContentLoaded', onParsed);
  } else {
    onParsed();
  }

  const ready = scheduler.settled.then(() => unpatch?.()).then(() => records);
  // Once the page has loaded and the scripts ran, remember.ts (beside the decoder, imported only then) measures the
  // link for the next view and the Worker, fetches the decoder if the next deploy's scripts would want it, and sets
  // up the beacon.
  addEventListener('load', () =>
    ready
      .then(() => import(/* @vite-ignore */ new URL('binast-remember.js', options.decoderUrl).href))
      .then((module: RememberModule) => module.default(records, options.beaconUrl))
      .catch(() => {}),
  );
  return { records, ready, scan };
}
