// Loads the Worker's parsers (TypeScript) into Node by bundling them with esbuild, and the BinaryAST decoder from the
// crate's Web build (wasm/binast/build.mjs), so the fuzzer exercises exactly the code the Worker runs.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { importWorkerCode } from '../lib/import-worker-code.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const src = join(repoRoot, 'workers', 'src');

/**
 * @typedef {object} WorkerParsers
 * @property {typeof import('../../workers/src/images/core/completeness').isComplete} isComplete
 * @property {typeof import('../../workers/src/shared/image-header/format').sniffImageFormat} sniffImageFormat
 * @property {typeof import('../../workers/src/shared/image-header/whole-file').readImageHeader} readImageHeader
 * @property {typeof import('../../workers/src/shared/image-header/orientation').readOrientation} readOrientation
 * @property {typeof import('../../workers/src/shared/image-header/colour-profile').readColour} readColour
 * @property {typeof import('../../workers/src/images/core/jpeg-structure').walkJpeg} walkJpeg
 * @property {typeof import('../../workers/src/images/core/url-options').parseOptions} parseOptions
 * @property {typeof import('../../workers/src/images/core/url-options').canonicalOptions} canonicalOptions
 * @property {typeof import('../../workers/src/images/core/resize-plan').planResize} planResize
 * @property {typeof import('../../workers/src/shared/accept').parseAccept} parseAccept
 * @property {typeof import('../../workers/src/shared/accept').explicitQuality} explicitQuality
 * @property {typeof import('../../workers/src/images/core/choose-format').chooseFormat} chooseFormat
 * @property {typeof import('../../workers/src/images/edge/source-fetch').locateSource} locateSource
 * @property {typeof import('../../workers/src/images/core/config').defaultConfig} imagesDefaults
 * @property {typeof import('../../workers/src/priority/scanner').scanImage} scanImage
 * @property {typeof import('../../workers/src/speedtest/params').parseBytesParam} parseBytesParam
 * @property {typeof import('../../workers/src/speedtest/limits').maxDownloadBytes} maxDownloadBytes
 * @property {typeof import('../../workers/src/priority/signal').browserSignal} browserSignal
 */

/**
 * The pure parsers of the Worker, in one ESM bundle.
 * @returns {Promise<WorkerParsers>}
 */
export function loadWorkerParsers() {
  return importWorkerCode(
    [
      "export { isComplete } from './images/core/completeness';",
      "export { sniffImageFormat } from './shared/image-header/format';",
      "export { readImageHeader } from './shared/image-header/whole-file';",
      "export { readOrientation } from './shared/image-header/orientation';",
      "export { readColour } from './shared/image-header/colour-profile';",
      "export { walkJpeg } from './images/core/jpeg-structure';",
      "export { parseOptions, canonicalOptions } from './images/core/url-options';",
      "export { planResize } from './images/core/resize-plan';",
      "export { parseAccept, explicitQuality } from './shared/accept';",
      "export { chooseFormat } from './images/core/choose-format';",
      "export { locateSource } from './images/edge/source-fetch';",
      "export { defaultConfig as imagesDefaults } from './images/core/config';",
      "export { scanImage } from './priority/scanner';",
      "export { browserSignal } from './priority/signal';",
      "export { parseBytesParam } from './speedtest/params';",
      "export { maxDownloadBytes } from './speedtest/limits';",
    ],
    src,
  );
}

const pkg = fileURLToPath(new URL('.', import.meta.resolve('@speedkit/binast/wasm')));

/**
 * A fresh BinaryAST decoder: its own copy of the wasm-bindgen glue (a new module URL) and its own Wasm instance, so
 * an input that traps cannot change what the next input sees (the fuzzer reloads after every trap).
 * @param {number} generation distinguishes the copies
 * @returns {Promise<BinastDecoder>}
 */
export async function loadBinastDecoder(generation) {
  const glue = await import(`${pathToFileURL(join(pkg, 'binast.js')).href}?instance=${generation}`);
  glue.initSync({ module: new WebAssembly.Module(readFileSync(join(pkg, 'binast_bg.wasm'))) });
  return glue;
}

/** @typedef {{ decodeToJavaScript: (bytes: Uint8Array) => string }} BinastDecoder */

/**
 * The crate's JavaScript encoder (acorn + the same Wasm), for seeding the decoder with real encodings.
 * @returns {Promise<{ encodeJavaScript: typeof import('@speedkit/binast').encodeJavaScript, decoder: BinastDecoder }>}
 */
export async function loadBinastEncoder() {
  // encode-javascript.js imports the glue by its plain URL: that copy needs its own instance.
  const plain = await import('@speedkit/binast/wasm');
  plain.initSync({ module: new WebAssembly.Module(readFileSync(join(pkg, 'binast_bg.wasm'))) });
  const decoder = await loadBinastDecoder(0);
  const { encodeJavaScript } = await import('@speedkit/binast');
  return { encodeJavaScript, decoder };
}
