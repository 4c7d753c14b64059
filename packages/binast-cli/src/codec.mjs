// The Node side of the codec: the same Web build (wasm/binast/build.mjs) the Worker bundles, instantiated from the file's bytes.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { encodeJavaScript, encodeProgram, parseForPath, parseJavaScript } from '@speedkit/binast';
import { refusePageRelative } from '@speedkit/binast/page-relative';
import { verifyEncoding } from '@speedkit/binast/verify';
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

/**
 * Encodes a file's bytes as the Worker does (a `.mjs`, or a `.js` that only parses as a module, is a module;
 * `module` insists on one) and checks the encoding decodes to the same program before returning it: a file nothing
 * can decode, or that regenerates another program, is an error here, not at a visitor's browser. UTF-8 only, as the
 * Worker reads scripts. `forLoader`: also refuse a module the loader could not run from the page (`binast prebuild`).
 * @param {Uint8Array} bytes
 * @param {string} path
 * @param {{ layout: import('@speedkit/binast').Layout, lazyLevel: number, module?: boolean, forLoader?: boolean }} options
 */
export function encodeChecked(bytes, path, { layout, lazyLevel, module = false, forLoader = false }) {
  let source;
  try {
    source = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // TextDecoder's own words ("The encoded data was not valid for encoding utf-8") do not say what to do.
    throw new Error('not UTF-8 (BinaryAST reads scripts as UTF-8; save it as UTF-8 to encode it)');
  }
  const { program, sourceType } = module
    ? { program: parseJavaScript(source, 'module'), sourceType: /** @type {const} */ ('module') }
    : parseForPath(source, path);
  if (forLoader) refusePageRelative(program, sourceType);
  const encoding = encodeProgram(program, { layout, lazyLevel });
  verifyEncoding(program, sourceType, encoding, decodeToJavaScript);
  return encoding;
}

export { decodeToJavaScript, encodeJavaScript, encodeProgram, parseForPath, parseJavaScript };
