// node bench/binast/main-thread-only.mjs [names] — only the main-thread part of bench:binast (main-thread.mjs), with
// more runs: what the loader's BinaryAST path adds to the page's main thread beyond the plain `<script src>` of the
// same library. Single runs on this shared 2-core machine differ by ±5 ms, so the 5 ms goal needs many
// interleaved runs; RUNS (default 25) sets how many. Names pick libraries of the corpus (default: all of them).
import { readFileSync } from 'node:fs';
import { libraries } from '@speedkit/binast-cli/corpus';
import { mainThreadCost } from './main-thread.mjs';
import { encodeAst, layoutFormats, parseJavaScript } from './wasm.mjs';

const runs = Number(process.env.RUNS ?? 25);
const wanted = process.argv.slice(2);
/** @type {Map<string, { source: string, binast: Uint8Array }>} */
const pageLibraries = new Map();
for (const library of libraries) {
  if (wanted.length > 0 && !wanted.includes(library.name)) continue;
  const source = readFileSync(library.path, 'utf8');
  const binast = encodeAst(parseJavaScript(source, 'script'), layoutFormats.context, 0);
  pageLibraries.set(library.name, { source, binast });
}
if (pageLibraries.size === 0) throw new Error(`no corpus library named ${wanted.join(', ')}`);
process.stdout.write(`main-thread cost in Chromium, ${runs} interleaved runs per way…\n`);
const results = await mainThreadCost(pageLibraries, runs);
process.stdout.write(
  "| library | plain ms | Blob URL +ms (of medians) | Blob URL +ms, paired [quartiles] | inline +ms (of medians) | inline +ms, paired [quartiles] | the loader's way |\n" +
    '|---|--:|--:|--:|--:|--:|---|\n',
);
const cell = (/** @type {number} */ ms) => ms.toFixed(1);
const spread = (/** @type {[number, number, number]} */ [low, mid, high]) =>
  `${cell(mid)} [${cell(low)}, ${cell(high)}]`;
for (const [name, row] of Object.entries(results)) {
  process.stdout.write(
    `| ${name} | ${cell(row.plainMs)} | ${cell(row.blobAddedMs)} | ${spread(row.blobPairedMs)} | ${cell(row.inlineAddedMs)} | ${spread(row.inlinePairedMs)} | ${row.loaderWay} |\n`,
  );
}
