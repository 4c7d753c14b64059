// The Web build of wasm/binast (wasm/binast/build.mjs) instantiated in Node, with the raw exports the benchmark compares.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseJavaScript } from '../../wasm/binast/js/encode-javascript.js';
import { decodeToJavaScript, encodeAst, encodeAstJson, initSync } from '../../wasm/binast/pkg/binast.js';

initSync({ module: readFileSync(fileURLToPath(new URL('../../wasm/binast/pkg/binast_bg.wasm', import.meta.url))) });

export { decodeToJavaScript, encodeAst, encodeAstJson, parseJavaScript };
