import { loadDecoder } from './decoder';
import { patchLateListeners, probeEnvironment, runScript } from './execute';
import { binastAccept, isBinastContentType } from './media-type';
import { planScript } from './plan';
import { type FallbackReason, measure, readSizes, type ScriptRecord } from './record';
import { createScheduler } from './scheduler';

export interface LoaderOptions {
  /** URL of the decoder's ES module (`binast.js`: `decodeToJavaScript(response)`, see src/decoder.ts). */
  decoderUrl: string;
  /** Off by default. When set, the records are POSTed there once with `navigator.sendBeacon` when the page hides. */
  beaconUrl?: string;
  /** CSP nonce given to every script and preload the loader inserts; when empty, each opt-in element's own nonce. */
  nonce?: string;
}

export interface BinastLoader {
  /** One record per opted-in script, in discovery order, filled in as scripts load. */
  readonly records: ScriptRecord[];
  /** Resolves with the records once every script found before DOMContentLoaded has executed or failed. */
  readonly ready: Promise<ScriptRecord[]>;
  /** Picks up `<script type="binast">` elements added after DOMContentLoaded (they run as async scripts). */
  scan(): void;
}

/** Executes a prepared script; resolves with the `load` (true) or `error` (false) it fires on the opt-in element. */
type Runner = () => Promise<boolean>;

/** Starts loading every opted-in script of the document; call once, as early as possible (in `<head>`). */
export function startLoader(options: LoaderOptions): BinastLoader {
  const records: ScriptRecord[] = [];
  const seen = new WeakSet<Element>();
  const scheduler = createScheduler();
  let parsed = false;
  // Environment facts, checked once before the first fetch so a page that cannot use the result downloads once.
  let environmentReason: FallbackReason | '' | undefined;

  const register = (script: HTMLScriptElement) => {
    const plan = !seen.has(script) && planScript(script, parsed);
    if (!plan) return;
    seen.add(script);
    const url = script.src;
    const record: ScriptRecord = { url, ...plan };
    records.push(record);
    // Without any nonce this is undefined, which the DOM stores as the nonce "undefined": harmless, no CSP matches it.
    const nonce = (options.nonce || script.nonce) as string;
    const finish = (outcome: ScriptRecord['outcome'], ok: boolean, startMs: number) => {
      record.executeMs = measure('binast:execute', startMs);
      readSizes(record);
      record.outcome = ok ? outcome : 'error';
      script.dispatchEvent(new Event(ok ? 'load' : 'error'));
      return ok;
    };
    const fallback = (reason: FallbackReason): Runner => {
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
        return finish('fallback', await runScript(script, url, record.module, nonce), startMs);
      };
    };
    const prepare = async (): Promise<Runner> => {
      environmentReason ??= probeEnvironment(nonce);
      const reason = script.integrity ? 'integrity' : environmentReason;
      if (reason) return fallback(reason);
      const startMs = performance.now();
      let response: Response;
      let source = '';
      let decoder: Promise<(response: Response) => Promise<string>> | undefined;
      try {
        // fetch's default credentials (same-origin) match a plain script's for same-origin URLs and for
        // crossorigin="anonymous"; see the README for cross-origin scripts.
        response = await fetch(url, { headers: { accept: binastAccept } });
        if (isBinastContentType(response.headers.get('content-type'))) {
          // The decoder loads while the body downloads; a failure is handled below, where it is awaited.
          decoder = loadDecoder(options.decoderUrl);
          decoder.catch(() => {});
        } else {
          source = await response.text();
        }
      } catch {
        return fallback('fetch');
      }
      if (!response.ok) return fallback(`http-${response.status}`);
      // For BinaryAST: to the response headers; its body streams into the decoder.
      record.fetchMs = measure('binast:fetch', startMs);
      if (decoder) {
        let decode: (response: Response) => Promise<string>;
        try {
          decode = await decoder;
        } catch {
          return fallback('decoder');
        }
        const decodeStartMs = performance.now();
        try {
          source = await decode(response);
        } catch {
          return fallback('decode');
        }
        record.decodeMs = measure('binast:decode', decodeStartMs);
      }
      return async () => {
        const startMs = performance.now();
        if (await runScript(script, url, record.module, nonce, source)) {
          return finish(decoder ? 'binast' : 'js', true, startMs);
        }
        return fallback('syntax')();
      };
    };
    const prepared = prepare();
    void scheduler.add(plan.mode, () => prepared.then((run) => run()));
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

  const { beaconUrl } = options;
  // pagehide is the last reliable moment; a page restored from the back/forward cache reports again, with updates.
  if (beaconUrl) addEventListener('pagehide', () => navigator.sendBeacon(beaconUrl, JSON.stringify(records)));

  const unpatch = patchLateListeners();
  return { records, ready: scheduler.settled.then(unpatch).then(() => records), scan };
}
