// The Web build of wasm/binast (wasm/binast/build.mjs) instantiated in Node, with the raw exports the benchmark compares.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { layoutFormats, parseJavaScript } from '@speedkit/binast';
import { decodeToJavaScript, encodeAst, encodeAstJson, initSync } from '@speedkit/binast/wasm';

initSync({ module: readFileSync(fileURLToPath(import.meta.resolve('@speedkit/binast/wasm/binast_bg.wasm'))) });

export { decodeToJavaScript, encodeAst, encodeAstJson, layoutFormats, parseJavaScript };
