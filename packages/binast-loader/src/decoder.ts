import type { FallbackReason, ScriptRecord } from './record';

/** Executes a prepared script; resolves with the `load` (true) or `error` (false) it fires on the opt-in element. */
export type Runner = () => Promise<boolean>;

/** What the loader hands the decoder module for one script its cost model sent to BinaryAST. */
export interface BinastJob {
  script: HTMLScriptElement;
  url: string;
  record: ScriptRecord;
  nonce: string;
  /**
   * The BinaryAST response, when the loader asked for it at once (the Worker preloads it where no earlier view ran
   * this script plain, so there is no cache to check: model.ts `preloadsBinast`); else `prepareScript` checks and
   * asks. Falsy (`undefined`, or `''` for an empty `data-binast-fetch`) when there is none: the loader passes
   * `fetchUrl && fetch(fetchUrl)`, the shortest form in its 2 KB.
   */
  early?: Promise<Response> | '';
  /**
   * The plain script's runner, for when BinaryAST fails (`outcome` `fallback`) or is not needed after all (`plain`):
   * it preloads the plain URL at once.
   */
  fallback(reason: FallbackReason, outcome?: 'fallback' | 'plain'): Runner;
  /** Records the execution's end (from `startMs`) and fires `load` (ok) or `error` on the opt-in element. */
  finish(outcome: 'binast' | 'js', ok: boolean, startMs: number): boolean;
}

/**
 * The contract of the decoder module, `binast.js` (src/off-thread/client.ts), imported only once the cost model
 * chose BinaryAST for a script: `prepareScript` probes what the page allows, fetches the script as BinaryAST,
 * decodes it off the main thread and resolves with the runner that executes the source (or the fallback's).
 */
export interface DecoderModule {
  /** Starts the decoder (its Worker and Wasm) for this page's scripts; resolves once it can decode. */
  default(): Promise<void>;
  /** Loads the decoder so its files are in the HTTP cache for later views, and stops it again (remember.ts). */
  warm(): Promise<void>;
  prepareScript(job: BinastJob): Promise<Runner>;
}

/**
 * The contract of `binast-remember.js` (src/remember.ts, beside the decoder), imported once the page has loaded:
 * `default(records, beaconUrl)` writes what this view measured for the next one, and sends the records to
 * `beaconUrl` when the page hides.
 */
export interface RememberModule {
  default(records: ScriptRecord[], beaconUrl?: string): void;
}
