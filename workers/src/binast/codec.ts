import { encodeProgram, parseForPath } from '@speedkit/binast';
import { refusePageRelative } from '@speedkit/binast/page-relative';
import { verifyEncoding } from '@speedkit/binast/verify';
import { __wbg_reset_state, decodeToJavaScript, initSync } from '@speedkit/binast/wasm';
import wasmModule from '@speedkit/binast/wasm/binast_bg.wasm';
import type { BinastConfig } from './config';

let initialised = false;

/** Instantiates the crate once per isolate; Workers cannot compile Wasm at run time, so the module is bundled. */
function ensureBinastWasm(): void {
  if (initialised) return;
  initSync({ module: wasmModule });
  initialised = true;
}

/** How many times this isolate replaced a trapped instance (diagnostics and tests). */
export let wasmResets = 0;

/**
 * Runs `work` against the crate. The crate returns errors rather than trapping, but if a trap happens anyway (a
 * bug, an exhausted stack) the instance is discarded: a trap leaves its stack pointer and heap wherever it
 * stopped, and reusing it would fail every later call in this isolate. The trap itself is rethrown.
 */
export function withBinastWasm<T>(work: () => T): T {
  ensureBinastWasm();
  try {
    return work();
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      console.error(`binast: Wasm trapped (${error.message}); starting a fresh instance`);
      __wbg_reset_state();
      wasmResets++;
    }
    throw error;
  }
}

/**
 * Encodes a script with the deployment's layout and lazy level. Throws on syntax errors and on trees nested
 * deeper than the crate allows (an Error, never a trap).
 */
export function encodeScript(source: string, path: string, config: BinastConfig): Uint8Array {
  const { program } = parseForPath(source, path);
  return withBinastWasm(() => encodeProgram(program, { layout: config.layout, lazyLevel: config.lazyLevel }));
}

/**
 * Encodes and then proves the encoding: its decode, parsed again, must be the same program as the source
 * (positions and literal spelling aside). A stored variant is served to every visitor, so an encoder or
 * regeneration bug must cost a cache miss, never a broken page. Throws when they differ.
 */
export function encodeVerified(source: string, path: string, config: BinastConfig): Uint8Array {
  const { program, sourceType } = parseForPath(source, path);
  refusePageRelative(program, sourceType);
  const bytes = withBinastWasm(() => encodeProgram(program, { layout: config.layout, lazyLevel: config.lazyLevel }));
  verifyEncoding(program, sourceType, bytes, decodeScript);
  return bytes;
}

/** BinaryAST -> JavaScript in the Worker (the pre-store check, tests and diagnostics). */
export function decodeScript(bytes: Uint8Array): string {
  return withBinastWasm(() => decodeToJavaScript(bytes));
}

/**
 * Checks an encoding made elsewhere (a prebuilt file) as this Worker checks its own: the source, parsed as the
 * encoder would, must be the program the encoding regenerates. Throws when it is not (or the source does not parse).
 */
export function verifyForeignEncoding(source: string, path: string, bytes: Uint8Array): void {
  const { program, sourceType } = parseForPath(source, path);
  refusePageRelative(program, sourceType);
  verifyEncoding(program, sourceType, bytes, decodeScript);
}

/** The script's text, or an error saying it is not UTF-8 (decoding with replacement characters would garble it). */
export function utf8Text(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Error('the script is not UTF-8');
  }
}
