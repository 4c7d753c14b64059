// Table printing and CSV/JSON output shared by the priority benchmarks.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const resultsDir = resolve(fileURLToPath(new URL('../results/priority', import.meta.url)));

/** @typedef {Record<string, unknown>} Row */

/**
 * Prints rows as an aligned text table with the given columns.
 * @param {string} title @param {Row[]} rows @param {string[]} columns
 */
export function printTable(title, rows, columns) {
  const cell = (/** @type {unknown} */ value) =>
    typeof value === 'number' && !Number.isInteger(value) ? value.toFixed(1) : String(value ?? '');
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => cell(r[c]).length)));
  const line = (/** @type {string[]} */ values) => values.map((v, i) => v.padStart(widths[i])).join('  ');
  process.stdout.write(`\n${title}\n${line(columns)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
  for (const row of rows) process.stdout.write(`${line(columns.map((c) => cell(row[c])))}\n`);
}

/**
 * Writes `<name>.json` (everything) and `<name>.csv` (the rows) into bench/results/priority/.
 * @param {string} name @param {Row[]} rows @param {Record<string, unknown>} [extra]
 */
export function writeResults(name, rows, extra = {}) {
  mkdirSync(resultsDir, { recursive: true });
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const quote = (/** @type {unknown} */ v) =>
    /[",\n]/.test(String(v ?? '')) ? `"${String(v).replaceAll('"', '""')}"` : String(v ?? '');
  const csv = [columns.join(','), ...rows.map((r) => columns.map((c) => quote(r[c])).join(','))].join('\n');
  writeFileSync(join(resultsDir, `${name}.csv`), `${csv}\n`);
  writeFileSync(join(resultsDir, `${name}.json`), `${JSON.stringify({ ...extra, rows }, null, 2)}\n`);
}
