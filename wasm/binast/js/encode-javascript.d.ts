import type { Program } from 'acorn';

export type Layout = 'multipart' | 'optimised' | 'context';

export interface EncodeOptions {
  /**
   * `context` (default): the tree entropy-coded with per-context adaptive models, smallest on the wire and served
   * as is (the only layout the decode-only build reads); `optimised`: per-kind streams shaped for brotli;
   * `multipart`: the proposal's layout.
   */
  layout?: Layout;
  /** Function nesting depth whose bodies get skip lengths, 0 (default, none) to 3. IIFEs are never lazy. */
  lazyLevel?: number;
  /** How acorn parses the source; default `script`. */
  sourceType?: 'script' | 'module';
  /** How the AST reaches Wasm: `serde` (serde-wasm-bindgen, default) or `json` (for benchmarks). */
  bridge?: 'serde' | 'json';
}

/** The wire format number each layout writes after the BINJS magic (the context layout's changes with its models). */
export declare const layoutFormats: { readonly multipart: 1; readonly optimised: 2; readonly context: 7 };
export declare function parseJavaScript(source: string, sourceType?: 'script' | 'module'): Program;
export declare function parseForPath(
  source: string,
  path: string,
): { program: Program; sourceType: 'script' | 'module' };
export declare function encodeJavaScript(source: string, options?: EncodeOptions): Uint8Array;
export declare function encodeProgram(ast: Program, options?: Omit<EncodeOptions, 'sourceType'>): Uint8Array;
