// npm run bench:binast — sizes and speeds of the BinaryAST codec on the real-library corpus, in one run:
//   sizes: source / gzip -9 / brotli 11 / multipart+brotli / optimised+brotli / context (as served, and +brotli),
//          ratios against brotli of the source
//   decoder: size of the decode-only build the loader ships, and its decode MB/s in Chromium (Web Worker) of the
//            context layout (the one it reads): warmed up, and a page's first decode in a freshly started browser
//   speed: encode MB/s in Wasm vs the same crate native (both fed the same ESTree JSON), the serde-wasm-bindgen
//          bridge vs a JSON-string bridge (stringify + serde_json in Wasm), decode+regenerate MB/s; all of the
//          context layout (the default)
//   then the unseen corpus (unseen.mjs), prebuilt sites (prebuilt.mjs) and every JavaScript file under node_modules
//   (sweep.mjs: round trips and sizes on code nobody picked)
// Prints a table and writes bench/results/binast.{json,csv}. Timings are medians of RUNS runs (default 3).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { libraries } from '@speedkit/binast-cli/corpus';
import { transformSync } from 'esbuild';
import { alignedTable } from './aligned-table.mjs';
import { chromiumDecodeMs, chromiumFirstDecodeMs, chromiumStreamTailMs } from './chromium-decode.mjs';
import { mainThreadCost } from './main-thread.mjs';
import { measurePrebuilt } from './prebuilt.mjs';
import { measureSweep } from './sweep.mjs';
import { measureUnseen } from './unseen.mjs';
import { decodeToJavaScript, encodeAst, encodeAstJson, layoutFormats, parseJavaScript } from './wasm.mjs';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const runs = Number(process.env.RUNS ?? 3);

const brotli = (/** @type {Uint8Array} */ bytes) =>
  brotliCompressSync(bytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
  }).length;
const gzip = (/** @type {Uint8Array} */ bytes) => gzipSync(bytes, { level: 9 }).length;

/** Median duration in ms of `runs` calls of `f`. @param {() => unknown} f */
function timeMs(f) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    f();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] ?? 0;
}

/**
 * Median durations of `f` and `g`, measured alternately so both see the same machine load.
 * @param {() => unknown} f
 * @param {() => unknown} g
 */
function timePairMs(f, g) {
  const a = [];
  const b = [];
  for (let i = 0; i < runs; i++) {
    let start = performance.now();
    f();
    a.push(performance.now() - start);
    start = performance.now();
    g();
    b.push(performance.now() - start);
  }
  const median = (/** @type {number[]} */ xs) => xs.sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0;
  return [median(a), median(b)];
}

const mbPerSecond = (/** @type {number} */ bytes, /** @type {number} */ ms) => bytes / 1e6 / (ms / 1000);
/**
 * JSON.stringify throws on BigInt values (the encoder reads BigInts from `bigint` anyway); a replacer would slow
 * every stringify, so it is only used when needed.
 * @param {unknown} ast
 */
function stringify(ast) {
  try {
    return JSON.stringify(ast);
  } catch {
    return JSON.stringify(ast, (_key, value) => (typeof value === 'bigint' ? null : value));
  }
}
const round = (/** @type {number} */ value, digits = 2) => Number(value.toFixed(digits));

process.stdout.write('building the native encoder (cargo --release)…\n');
execFileSync('cargo', ['build', '--release', '--quiet', '--example', 'native_bench', '-p', 'binast'], {
  cwd: repoRoot,
  stdio: 'inherit',
});
const scratch = mkdtempSync(join(tmpdir(), 'bench-binast-'));

/**
 * @typedef {object} Row sizes in bytes, speeds in MB/s of source (Chromium: of regenerated JavaScript), bridges in ms
 * @property {string} library
 * @property {number} sourceBytes
 * @property {number} gzipBytes
 * @property {number} brotliBytes
 * @property {number} multipartBytes
 * @property {number} multipartBrotliBytes
 * @property {number} optimisedBytes
 * @property {number} optimisedBrotliBytes
 * @property {number} contextBytes the context layout as served (no brotli on top)
 * @property {number} contextBrotliBytes the same after brotli 11, to show whether brotli still helps
 * @property {number} serdeBridgeMs
 * @property {number} jsonBridgeMs
 * @property {number} [wasmEncodeMBps] not in the totals row, as are the speeds below
 * @property {number} [nativeEncodeMBps]
 * @property {number} [decodeRegenerateMBps]
 * @property {number} [nativeDecodeRegenerateMBps]
 * @property {number} [chromiumDecodeMBps] set once every library is encoded
 * @property {number} [chromiumFirstDecodeMBps] the first decode in a freshly started browser (Liftoff code, before
 *   tier-up), the median of 3 launches: what a page's one decode of the script pays
 * @property {number} [chromiumMainThreadMs] main-thread busy ms the loader's BinaryAST path adds in Chromium to the
 *   plain `<script src>` of the same library, execution included in both, the way the loader runs this library
 *   (`loaderWay`), the median of paired runs (main-thread.mjs)
 * @property {'blob' | 'inline'} [loaderWay] how the loader runs this library's decoded source (run-way.ts)
 * @property {number} [blobMainThreadMs] the same from a Blob URL, by medians (main-thread.mjs `blobAddedMs`)
 * @property {number} [inlineMainThreadMs] the same as inline text, by medians
 * @property {number} [streamedTailMs] ms from the last byte to the source when the file arrives at 1.6 Mbit/s and is
 *   decoded as it arrives (chromium-decode.mjs)
 * @property {number} [wholeTailMs] the same when the whole file is gathered first
 */
/** @typedef {'sourceBytes' | 'gzipBytes' | 'brotliBytes' | 'multipartBytes' | 'multipartBrotliBytes' | 'optimisedBytes' | 'optimisedBrotliBytes' | 'contextBytes' | 'contextBrotliBytes' | 'serdeBridgeMs' | 'jsonBridgeMs'} TotalledKey */

/** @type {Row[]} */
const rows = [];
/** @type {Map<string, Uint8Array>} context encodings, for the Chromium decode run */
const encodings = new Map();
/** @type {Map<string, { source: string, binast: Uint8Array }>} for the main-thread run */
const pageLibraries = new Map();
for (const library of libraries) {
  const sourceBytes = readFileSync(library.path);
  const source = sourceBytes.toString('utf8');
  const ast = parseJavaScript(source, 'script');
  const json = stringify(ast);
  const astPath = join(scratch, `${library.name}.json`);
  writeFileSync(astPath, json);

  const multipart = encodeAst(ast, layoutFormats.multipart, 0);
  const optimised = encodeAst(ast, layoutFormats.optimised, 0);
  const context = encodeAst(ast, layoutFormats.context, 0);
  encodings.set(library.name, context);
  pageLibraries.set(library.name, { source, binast: context });
  const sourceBrotli = brotli(sourceBytes);
  const [serdeMs, jsonBridgeMs] = timePairMs(
    () => encodeAst(ast, layoutFormats.context, 0),
    () => encodeAstJson(stringify(ast), layoutFormats.context, 0),
  );
  const wasmEncodeMs = timeMs(() => encodeAstJson(json, layoutFormats.context, 0));
  const decodeMs = timeMs(() => decodeToJavaScript(context));
  const native = JSON.parse(
    execFileSync(join(repoRoot, 'target/release/examples/native_bench'), [String(runs), astPath], { encoding: 'utf8' }),
  );
  rows.push({
    library: library.name,
    sourceBytes: sourceBytes.length,
    gzipBytes: gzip(sourceBytes),
    brotliBytes: sourceBrotli,
    multipartBytes: multipart.length,
    multipartBrotliBytes: brotli(multipart),
    optimisedBytes: optimised.length,
    optimisedBrotliBytes: brotli(optimised),
    contextBytes: context.length,
    contextBrotliBytes: brotli(context),
    wasmEncodeMBps: round(mbPerSecond(sourceBytes.length, wasmEncodeMs)),
    nativeEncodeMBps: round(mbPerSecond(sourceBytes.length, native.encodeMs)),
    serdeBridgeMs: round(serdeMs, 1),
    jsonBridgeMs: round(jsonBridgeMs, 1),
    decodeRegenerateMBps: round(mbPerSecond(sourceBytes.length, decodeMs)),
    nativeDecodeRegenerateMBps: round(mbPerSecond(sourceBytes.length, native.decodeMs)),
  });
  process.stdout.write(`  ${library.name} done\n`);
}
rmSync(scratch, { recursive: true, force: true });

process.stdout.write('decoding in Chromium (decode-only build, in a Web Worker)…\n');
const chromiumResults = await chromiumDecodeMs(encodings, runs);
process.stdout.write('first decode in a freshly started Chromium (3 launches per library)…\n');
const firstResults = await chromiumFirstDecodeMs(encodings, 3);
process.stdout.write('decoding while the bytes arrive at 1.6 Mbit/s, in Chromium…\n');
const streamed = await chromiumStreamTailMs(encodings);
process.stdout.write('main-thread cost in Chromium (plain <script src> vs Blob URL vs inline)…\n');
// Single runs differ by several ms on this shared machine (main-thread-only.mjs): at least 15 per way.
const mainThread = await mainThreadCost(pageLibraries, Math.max(runs, 15));
for (const row of rows) {
  const result = chromiumResults[row.library];
  // MB/s of regenerated JavaScript (what the goal counts), not of the original source.
  row.chromiumDecodeMBps = result ? round(mbPerSecond(result.outputChars, result.ms)) : 0;
  const first = firstResults[row.library];
  row.chromiumFirstDecodeMBps = first ? round(mbPerSecond(first.outputChars, first.ms)) : 0;
  const cost = mainThread[row.library];
  // The paired median of the way the loader takes for this library.
  const loaderPairedMs = cost && (cost.loaderWay === 'blob' ? cost.blobPairedMs : cost.inlinePairedMs);
  row.chromiumMainThreadMs = round(loaderPairedMs?.[1] ?? 0);
  row.loaderWay = cost?.loaderWay;
  row.blobMainThreadMs = round(cost?.blobAddedMs ?? 0);
  row.inlineMainThreadMs = round(cost?.inlineAddedMs ?? 0);
  row.streamedTailMs = round(streamed.tails[row.library]?.streamedTailMs ?? 0, 1);
  row.wholeTailMs = round(streamed.tails[row.library]?.wholeTailMs ?? 0, 1);
}
const decoderDir = new URL('.', import.meta.resolve('@speedkit/binast/decode'));
const decoder = {
  wasmBytes: readFileSync(new URL('binast_bg.wasm', decoderDir)).length,
  wasmGzipBytes: gzip(readFileSync(new URL('binast_bg.wasm', decoderDir))),
  // Its JavaScript interface (wasm/binast/js/decode.js) minified, as the loader's build ships it.
  glueGzipBytes: gzip(
    Buffer.from(
      transformSync(readFileSync(new URL('binast.js', decoderDir), 'utf8'), { minify: true, format: 'esm' }).code,
    ),
  ),
  fullBuildGzipBytes: gzip(readFileSync(new URL(import.meta.resolve('@speedkit/binast/wasm/binast_bg.wasm')))),
};

const sum = (/** @type {TotalledKey} */ key) => rows.reduce((total, row) => total + row[key], 0);
/** @type {Row} */
const totals = {
  library: 'TOTAL',
  sourceBytes: sum('sourceBytes'),
  gzipBytes: sum('gzipBytes'),
  brotliBytes: sum('brotliBytes'),
  multipartBytes: sum('multipartBytes'),
  multipartBrotliBytes: sum('multipartBrotliBytes'),
  optimisedBytes: sum('optimisedBytes'),
  optimisedBrotliBytes: sum('optimisedBrotliBytes'),
  contextBytes: sum('contextBytes'),
  contextBrotliBytes: sum('contextBrotliBytes'),
  serdeBridgeMs: round(sum('serdeBridgeMs'), 1),
  jsonBridgeMs: round(sum('jsonBridgeMs'), 1),
};

const table = [
  [
    'library',
    'source',
    'gzip',
    'brotli',
    'multi+br',
    '×br',
    'optim+br',
    '×br',
    'context',
    '×br',
    'ctx+br',
    'wasm MB/s',
    'native MB/s',
    'serde ms',
    'json ms',
    'json/serde',
    'decode MB/s',
    'chromium MB/s',
    'first MB/s',
    'main +ms',
    'way',
    'blob +ms',
    'inline +ms',
    'tail ms',
    'whole tail',
  ],
  ...[...rows, totals].map((row) => [
    row.library,
    row.sourceBytes,
    row.gzipBytes,
    row.brotliBytes,
    row.multipartBrotliBytes,
    (row.multipartBrotliBytes / row.brotliBytes).toFixed(3),
    row.optimisedBrotliBytes,
    (row.optimisedBrotliBytes / row.brotliBytes).toFixed(3),
    row.contextBytes,
    (row.contextBytes / row.brotliBytes).toFixed(3),
    row.contextBrotliBytes,
    row.wasmEncodeMBps ?? '',
    row.nativeEncodeMBps ?? '',
    row.serdeBridgeMs,
    row.jsonBridgeMs,
    (row.jsonBridgeMs / row.serdeBridgeMs).toFixed(2),
    row.decodeRegenerateMBps ?? '',
    row.chromiumDecodeMBps ?? '',
    row.chromiumFirstDecodeMBps ?? '',
    row.chromiumMainThreadMs ?? '',
    row.loaderWay ?? '',
    row.blobMainThreadMs ?? '',
    row.inlineMainThreadMs ?? '',
    row.streamedTailMs ?? '',
    row.wholeTailMs ?? '',
  ]),
];
process.stdout.write(
  `\nBinaryAST on the library corpus (lazy level 0, medians of ${runs} runs, Node ${process.version})\n${alignedTable(table)}\n`,
);
const contextRatios = rows.map((row) => row.contextBytes / row.brotliBytes).sort((a, b) => a - b);
process.stdout.write(
  `\ncontext / brotli(source): median ${(contextRatios[Math.floor(contextRatios.length / 2)] ?? 0).toFixed(3)} (aim <= 0.90)` +
    `, largest ${(contextRatios.at(-1) ?? 0).toFixed(3)} (aim <= 1.0); totals ${(totals.contextBytes / totals.brotliBytes).toFixed(3)}` +
    `; optimised+brotli / brotli(source) = ${(totals.optimisedBrotliBytes / totals.brotliBytes).toFixed(3)}` +
    `; JSON bridge / serde bridge time = ${(totals.jsonBridgeMs / totals.serdeBridgeMs).toFixed(2)} (aim >= 1.5)\n`,
);
const chromiumSpeeds = rows.map((row) => row.chromiumDecodeMBps ?? 0).sort((a, b) => a - b);
const firstSpeeds = rows.map((row) => row.chromiumFirstDecodeMBps ?? 0).sort((a, b) => a - b);
process.stdout.write(
  `browser decoder (decode-only build): ${decoder.wasmBytes} B Wasm, ${decoder.wasmGzipBytes} B gzip + ` +
    `${decoder.glueGzipBytes} B gzip glue = ${decoder.wasmGzipBytes + decoder.glueGzipBytes} B (aim <= 40960; ` +
    `full build ${decoder.fullBuildGzipBytes} B gzip); Chromium decode median ` +
    `${chromiumSpeeds[Math.floor(chromiumSpeeds.length / 2)]} MB/s of JavaScript (aim >= 30), a page's first decode ` +
    `(freshly started browser) ${firstSpeeds[Math.floor(firstSpeeds.length / 2)]} MB/s; main thread added per ` +
    `script (the loader's way vs plain <script src>, paired) ${Math.max(...rows.map((row) => row.chromiumMainThreadMs ?? 0))} ms at ` +
    `most (aim <= 5; every script from a Blob URL: ${Math.max(...rows.map((row) => row.blobMainThreadMs ?? 0))} ms, ` +
    `as inline text: ${Math.max(...rows.map((row) => row.inlineMainThreadMs ?? 0))} ms, by medians)\n` +
    `decoding while a file arrives at 1.6 Mbit/s (${streamed.streams ? 'JavaScript Promise Integration' : 'not supported here: gathered first'}): ` +
    `last byte to source ${round(rows.reduce((total, row) => total + (row.streamedTailMs ?? 0), 0))} ms over the ` +
    `corpus, against ${round(rows.reduce((total, row) => total + (row.wholeTailMs ?? 0), 0))} ms gathering each file first\n`,
);

const results = join(repoRoot, 'bench/results');
mkdirSync(results, { recursive: true });
const report = { date: new Date().toISOString(), node: process.version, runs, rows, totals, decoder };
writeFileSync(join(results, 'binast.json'), `${JSON.stringify(report, null, 2)}\n`);
const columns = Object.keys(rows[0] ?? {});
writeFileSync(
  join(results, 'binast.csv'),
  `${[columns.join(','), ...rows.map((row) => columns.map((c) => row[/** @type {keyof Row} */ (c)]).join(','))].join('\n')}\n`,
);
process.stdout.write('wrote bench/results/binast.json and bench/results/binast.csv\n');
measureUnseen(results);
await measurePrebuilt(results);
measureSweep(results);
