// The context layout on a second corpus it was never tuned on (`unseenLibraries` in the CLI's corpus): wire bytes
// against gzip -9 and brotli 11 of the minified source, and a round trip (decode, re-parse, compare the trees) per
// library, so a size is only reported for an encoding that decodes to the same program. Sizes are deterministic;
// no timing here. Part of `npm run bench:binast`; writes bench/results/binast-unseen.{json,csv}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { encodeJavaScript, parseJavaScript } from '@speedkit/binast';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { unseenLibraries } from '@speedkit/binast-cli/corpus';
import { alignedTable } from './aligned-table.mjs';
import { decodeToJavaScript } from './wasm.mjs';

/**
 * @typedef {object} UnseenRow
 * @property {string} library
 * @property {number} sourceBytes
 * @property {number} gzipBytes gzip -9 of the source
 * @property {number} brotliBytes brotli 11 of the source
 * @property {number} contextBytes the context layout as served (no compression on top)
 * @property {number} ratioToBrotli contextBytes / brotliBytes
 * @property {number} ratioToGzip contextBytes / gzipBytes
 * @property {string} roundTrip `equal`, or the first difference between the original and the decoded tree
 */

/** Measures every library of the unseen corpus; prints a table and writes the results. @param {string} resultsDir */
export function measureUnseen(resultsDir) {
  /** @type {UnseenRow[]} */
  const rows = unseenLibraries.map((library) => {
    const sourceBytes = readFileSync(library.path);
    const source = sourceBytes.toString('utf8');
    const context = encodeJavaScript(source, { layout: 'context', sourceType: library.sourceType });
    const regenerated = decodeToJavaScript(context);
    const difference = firstDifference(
      parseJavaScript(source, library.sourceType),
      parseJavaScript(regenerated, library.sourceType),
    );
    const gzipBytes = gzipSync(sourceBytes, { level: 9 }).length;
    const brotliBytes = brotliCompressSync(sourceBytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: sourceBytes.length },
    }).length;
    return {
      library: library.name,
      sourceBytes: sourceBytes.length,
      gzipBytes,
      brotliBytes,
      contextBytes: context.length,
      ratioToBrotli: Number((context.length / brotliBytes).toFixed(3)),
      ratioToGzip: Number((context.length / gzipBytes).toFixed(3)),
      roundTrip: difference ?? 'equal',
    };
  });
  printTable(rows);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'binast-unseen.json'),
    `${JSON.stringify({ date: new Date().toISOString(), rows }, null, 2)}\n`,
  );
  const columns = /** @type {(keyof UnseenRow)[]} */ (Object.keys(rows[0] ?? {}));
  writeFileSync(
    join(resultsDir, 'binast-unseen.csv'),
    `${[columns.join(','), ...rows.map((row) => columns.map((column) => JSON.stringify(row[column])).join(','))].join('\n')}\n`,
  );
  process.stdout.write('wrote bench/results/binast-unseen.json and bench/results/binast-unseen.csv\n');
  return rows;
}

/** @param {UnseenRow[]} rows */
function printTable(rows) {
  const header = ['library', 'source', 'gzip', 'brotli', 'context', '×br', '×gz', 'round trip'];
  const lines = [
    header,
    ...rows.map((row) => [
      row.library,
      row.sourceBytes,
      row.gzipBytes,
      row.brotliBytes,
      row.contextBytes,
      row.ratioToBrotli.toFixed(3),
      row.ratioToGzip.toFixed(3),
      row.roundTrip,
    ]),
  ];
  const ratios = rows.map((row) => row.ratioToBrotli).sort((a, b) => a - b);
  const median =
    ratios.length % 2
      ? ratios[(ratios.length - 1) / 2]
      : ((ratios[ratios.length / 2 - 1] ?? 0) + (ratios[ratios.length / 2] ?? 0)) / 2;
  process.stdout.write(
    `\nBinaryAST context layout on the unseen corpus (${rows.length} libraries, not used to tune the format)\n${alignedTable(lines)}\ncontext / brotli(source): median ${(median ?? 0).toFixed(3)} (aim <= 0.90), largest ${(ratios.at(-1) ?? 0).toFixed(3)} (aim <= 1.0); round trips equal: ${rows.filter((row) => row.roundTrip === 'equal').length}/${rows.length}\n`,
  );
}

// Run alone: `node bench/binast/unseen.mjs`.
if (import.meta.url === `file://${process.argv[1]}`) {
  measureUnseen(new URL('../results/', import.meta.url).pathname);
}
