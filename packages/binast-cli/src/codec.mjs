// The Node side of the codec: the same Web build (wasm/binast/build.mjs) the Worker bundles, instantiated from the file's bytes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeJavaScript, encodeProgram, parseForPath, parseJavaScript } from '@speedkit/binast';
import { binastStats, decodeToJavaScript, initSync } from '@speedkit/binast/wasm';

const wasmPath = fileURLToPath(import.meta.resolve('@speedkit/binast/wasm/binast_bg.wasm'));
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

export { decodeToJavaScript, encodeJavaScript, encodeProgram, parseForPath, parseJavaScript };
