// Every JavaScript file installed under node_modules (thousands of files of hundreds of packages: minified bundles,
// CommonJS, ES modules, compiler output, polyfills, tests) through the BinaryAST context layout: parse, encode,
// decode, re-parse, compare the trees; and its size against brotli 11 of the source. The two corpora measure the
// format on chosen libraries; this asks what it does on code nobody picked, so a codegen or encoder bug that only some
// unusual file meets shows up as a named file and its first difference. Sizes are deterministic; no timing but the
// sweep's own duration. Part of `npm run bench:binast`; alone: `node bench/binast/sweep.mjs`.
// Writes bench/results/binast-sweep.{json,csv} (a row a file).
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants } from 'node:zlib';
import { encodeJavaScript, parseJavaScript } from '@speedkit/binast';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { median } from '../speed-page/stats.mjs';
import { alignedTable } from './aligned-table.mjs';
import { decodeToJavaScript } from './wasm.mjs';

const nodeModules = fileURLToPath(new URL('../../node_modules/', import.meta.url));
/** Files below this are mostly a line of re-exports; above the upper bound, the Worker would not encode them anyway. */
const smallestBytes = 200;
const largestBytes = 1_500_000;

/**
 * @typedef {object} SweepRow
 * @property {string} file path under node_modules
 * @property {'script' | 'module'} sourceType the goal it parses as (script first, as the CLI does for `.js`)
 * @property {number} sourceBytes
 * @property {number} brotliBytes brotli 11 of the source
 * @property {number} contextBytes the context layout as served
 * @property {string} roundTrip `equal`, the first difference between the trees, or the error that stopped the trip
 */

/** Every .js/.mjs/.cjs file in the size range, sorted so every run reads them in the same order. @param {string} dir */
function javaScriptFiles(dir) {
  /** @type {string[]} */
  const found = [];
  /** @param {string} folder */
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      // Links (workspace packages, .bin) point at files read elsewhere or at the repository's own sources.
      if (entry.isSymbolicLink()) continue;
      if (entry.isDirectory()) walk(path);
      else if (/\.[cm]?js$/.test(entry.name)) {
        const { size } = statSync(path);
        if (size >= smallestBytes && size <= largestBytes) found.push(path);
      }
    }
  };
  walk(dir);
  return found.sort();
}

/** The goal a file parses as, or null for a file that is not JavaScript either way (Flow, JSX, templates). @param {string} source */
function parsedGoal(source) {
  for (const goal of /** @type {const} */ (['script', 'module'])) {
    try {
      return { goal, tree: parseJavaScript(source, goal) };
    } catch {
      // Try the other goal.
    }
  }
  return null;
}

/** One file's trip: null when it does not parse. @param {string} path @returns {SweepRow | null} */
function sweepFile(path) {
  const sourceBytes = readFileSync(path);
  const source = sourceBytes.toString('utf8');
  const parsed = parsedGoal(source);
  if (!parsed) return null;
  const brotliBytes = brotliCompressSync(sourceBytes, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: sourceBytes.length },
  }).length;
  let contextBytes = 0;
  let roundTrip = 'equal';
  try {
    const context = encodeJavaScript(source, { layout: 'context', sourceType: parsed.goal });
    contextBytes = context.length;
    const regenerated = decodeToJavaScript(context);
    roundTrip = firstDifference(parsed.tree, parseJavaScript(regenerated, parsed.goal)) ?? 'equal';
  } catch (error) {
    roundTrip = `error: ${error instanceof Error ? error.message : String(error)}`;
  }
  return {
    file: relative(nodeModules, path),
    sourceType: parsed.goal,
    sourceBytes: sourceBytes.length,
    brotliBytes,
    contextBytes,
    roundTrip: roundTrip.slice(0, 300),
  };
}

/** Size classes, by source bytes: the header and tables weigh most on small files. */
const sizeClasses = [
  { label: '< 10 KB', below: 10_000 },
  { label: '10–100 KB', below: 100_000 },
  { label: '≥ 100 KB', below: Number.POSITIVE_INFINITY },
];

/** Sweeps node_modules; prints a table by size class and the files that failed; writes the results. @param {string} resultsDir */
export function measureSweep(resultsDir) {
  const startMs = performance.now();
  const files = javaScriptFiles(nodeModules);
  /** @type {SweepRow[]} */
  const rows = [];
  for (const path of files) {
    const row = sweepFile(path);
    if (row) rows.push(row);
  }
  const seconds = (performance.now() - startMs) / 1000;
  const trips = rows.filter((row) => row.roundTrip === 'equal');
  const lines = [
    ['source size', 'files', 'source', 'brotli', 'context', '×br total', '×br median', '> 1.0×br'],
    ...sizeClasses.map((sizeClass, index) => {
      const above = sizeClasses[index - 1]?.below ?? 0;
      const inClass = trips.filter((row) => row.sourceBytes >= above && row.sourceBytes < sizeClass.below);
      const sum = (/** @type {(row: SweepRow) => number} */ pick) =>
        inClass.reduce((total, row) => total + pick(row), 0);
      const ratios = inClass.map((row) => row.contextBytes / row.brotliBytes);
      return [
        sizeClass.label,
        inClass.length,
        sum((row) => row.sourceBytes),
        sum((row) => row.brotliBytes),
        sum((row) => row.contextBytes),
        (
          sum((row) => row.contextBytes) /
          Math.max(
            1,
            sum((row) => row.brotliBytes),
          )
        ).toFixed(3),
        median(ratios).toFixed(3),
        ratios.filter((ratio) => ratio > 1).length,
      ];
    }),
  ];
  const failed = rows.filter((row) => row.roundTrip !== 'equal');
  process.stdout.write(
    `\nBinaryAST context layout on every JavaScript file under node_modules (${files.length} files of ` +
      `${smallestBytes} B to ${largestBytes / 1e6} MB; ${files.length - rows.length} parse as neither script nor ` +
      `module; ${seconds.toFixed(0)} s; sources as installed, many not minified, so brotli's bytes include ` +
      `comments and whitespace the format drops: the corpora compare minified builds)\n${alignedTable(lines)}\nround trips equal: ${trips.length}/${rows.length}\n` +
      failed.map((row) => `  ${row.file} (${row.sourceType}): ${row.roundTrip}\n`).join(''),
  );
  writeFileSync(
    join(resultsDir, 'binast-sweep.json'),
    `${JSON.stringify({ date: new Date().toISOString(), files: files.length, seconds: Math.round(seconds), rows })}\n`,
  );
  const columns = /** @type {(keyof SweepRow)[]} */ (Object.keys(rows[0] ?? {}));
  writeFileSync(
    join(resultsDir, 'binast-sweep.csv'),
    `${[columns.join(','), ...rows.map((row) => columns.map((column) => JSON.stringify(row[column])).join(','))].join('\n')}\n`,
  );
  process.stdout.write('wrote bench/results/binast-sweep.json and bench/results/binast-sweep.csv\n');
  return { rows, failed };
}

// Run alone: `node bench/binast/sweep.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureSweep(new URL('../results/', import.meta.url).pathname);
}
