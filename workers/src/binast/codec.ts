import { encodeJavaScript } from '../../../wasm/binast/js/encode-javascript.js';
import { decodeToJavaScript, initSync } from '../../../wasm/binast/pkg/binast.js';
import wasmModule from '../../../wasm/binast/pkg/binast_bg.wasm';
import type { BinastConfig } from './config';

let initialised = false;

/** Instantiates the crate once per isolate; Workers cannot compile Wasm at run time, so the module is bundled. */
export function ensureBinastWasm(): void {
  if (initialised) return;
  initSync({ module: wasmModule });
  initialised = true;
}

/**
 * Encodes a script with the deployment's layout and lazy level. A `.mjs` path, or a `.js` file that only parses
 * as a module (import/export), is encoded as a module. Throws on syntax errors.
 */
export function encodeScript(source: string, path: string, config: BinastConfig): Uint8Array {
  ensureBinastWasm();
  const options = { layout: config.layout, lazyLevel: config.lazyLevel };
  if (path.endsWith('.mjs')) return encodeJavaScript(source, { ...options, sourceType: 'module' });
  try {
    return encodeJavaScript(source, { ...options, sourceType: 'script' });
  } catch (scriptError) {
    try {
      return encodeJavaScript(source, { ...options, sourceType: 'module' });
    } catch {
      throw scriptError;
    }
  }
}

/** BinaryAST -> JavaScript in the Worker (used by tests and diagnostics). */
export function decodeScript(bytes: Uint8Array): string {
  ensureBinastWasm();
  return decodeToJavaScript(bytes);
}
