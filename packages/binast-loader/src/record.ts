import type { Choice, CostInput, Decision } from './model';
import type { ExecutionMode } from './plan';

/**
 * Why a script fell back to a plain `<script src>`: `cached` (the plain script is in the HTTP cache already, a repeat
 * view: nothing to download or decode), `integrity` (SRI pins the JavaScript bytes), `csp-inline` (the
 * page's CSP blocks the inline scripts the loader executes), `no-wasm` (WebAssembly missing or blocked by CSP),
 * `fetch` (network or CORS error), `http-<status>`, `decoder` (decoder module or Wasm failed to load), `decode`
 * (the BinaryAST bytes did not decode), `syntax` (the decoded JavaScript did not parse).
 */
export type FallbackReason =
  | 'cached'
  | 'integrity'
  | 'csp-inline'
  | 'no-wasm'
  | 'fetch'
  | `http-${number}`
  | 'decoder'
  | 'decode'
  | 'syntax';

/**
 * What happened to one script; the loader keeps one per script, in discovery order. The cost model's input and
 * answer are part of it (`jsBytes`, `binastBytes`, `decoderCached`, `downMbit`, `rttMs`, `savedMs`, `costMs`).
 */
export interface ScriptRecord extends Partial<CostInput>, Partial<Omit<Decision, 'reason'>> {
  /** Absolute script URL. */
  url: string;
  mode: ExecutionMode;
  module: boolean;
  /**
   * `binast`: decoded and executed; `js`: the server answered JavaScript, executed as is; `plain`: the cost model
   * chose the plain `<script src>` (see `reason`), so BinaryAST was never asked for; `fallback`: BinaryAST was asked
   * for but the script ran through a plain `<script src>` (see `reason`); `error`: even the plain script failed (the
   * element got an `error` event); absent: not executed yet.
   */
  outcome?: 'binast' | 'js' | 'plain' | 'fallback' | 'error';
  /**
   * The cost model's choice (model.ts), replaced by the fallback's reason when BinaryAST failed; `native` for a
   * plain `<script src>` the Worker wrote back into the page (model.ts `nativeScriptRule`), which the browser ran
   * without the loader (`outcome: 'plain'`, no timings or sizes).
   */
  reason?: Choice | FallbackReason | 'native';
  /** Bytes on the wire for the response that was executed, headers included (Resource Timing `transferSize`). */
  transferBytes?: number;
  /**
   * Request start to full body (JavaScript) or to the response headers (BinaryAST, whose body streams into the
   * decoder), in ms; for a request the loader made before the decoder module loaded, from when the module took it.
   */
  fetchMs?: number;
  /**
   * BinaryAST to JavaScript, in ms: from handing the response to the ready decoder to its source, so the rest of the
   * body's download overlaps it (decoder download and instantiation excluded).
   */
  decodeMs?: number;
  /**
   * True when the decoded source came from Cache Storage (an earlier view decoded the same BinaryAST, same ETag):
   * nothing was decoded, `decodeMs` is the time to read it back.
   */
  decodedBefore?: boolean;
  /**
   * How a script of the BinaryAST path ran: `blob` (from a `blob:` URL, the default for classic scripts: the source
   * never becomes a string on the main thread) or `inline` (modules, and pages whose CSP refuses `blob:` scripts).
   */
  executedFrom?: 'blob' | 'inline';
  /** Insertion to end of execution (for the plain fallback: insertion to `load`, so it includes the refetch), in ms. */
  executeMs?: number;
}

/**
 * Adds a User Timing measure from `startMs` to now and returns its duration in ms. Never throws: timing is a side
 * channel and must not break loading (browsers before User Timing 3, e.g. Safari 14.0, which run the loader's
 * syntax, reject the options form). Measures of several scripts share a name and follow the records' order of
 * events; the records carry the per-URL durations.
 */
export function measure(name: string, startMs: number): number {
  const endMs = performance.now();
  try {
    performance.measure(name, { start: startMs, end: endMs });
  } catch {}
  return endMs - startMs;
}
