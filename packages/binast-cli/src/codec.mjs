// The Node side of the codec: the same Web build (wasm/binast/build.mjs) the Worker bundles, instantiated from the file's bytes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeJavaScript, parseJavaScript } from '../../../wasm/binast/js/encode-javascript.js';
import { binastStats, decodeToJavaScript, initSync } from '../../../wasm/binast/pkg/binast.js';

const wasmPath = fileURLToPath(new URL('../../../wasm/binast/pkg/binast_bg.wasm', import.meta.url));
initSync({ module: readFileSync(wasmPath) });

/**
 * What is inside a BinaryAST file.
 * @param {Uint8Array} bytes
 * @returns {{ format: number, layout: string, grammarEntries: number, stringEntries: number, stringBytes: number,
 *   streamBytes: number[], nodes: number, lazyFunctions: number }}
 */
export function stats(bytes) {
  return JSON.parse(binastStats(bytes));
}

export { decodeToJavaScript, encodeJavaScript, parseJavaScript };
