// What a prebuilt file (`binast prebuild`, workers/src/binast/prebuilt.ts) saves the Worker on a miss, per library of
// the bench corpus: the CPU of the Worker's own way (parse, encode, decode, parse again, compare) against storing a
// prebuilt file under BINAST_PREBUILT=verify (read and hash it, then the same check without the encode) and =trust
// (read and hash only). Same Wasm build and code as the Worker, in Node; the median of `runs` per way, the ways
// alternating so machine noise falls on all three alike. Part of `npm run bench:binast`; writes
// bench/results/binast-prebuilt.{json,csv}.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeProgram, parseForPath } from '@speedkit/binast';
import { readPrebuilt, sha256OfBytes, writePrebuilt } from '@speedkit/binast/prebuilt';
import { verifyEncoding } from '@speedkit/binast/verify';
import { libraries } from '@speedkit/binast-cli/corpus';
import { alignedTable } from './aligned-table.mjs';
import { decodeToJavaScript } from './wasm.mjs';

/**
 * @typedef {object} PrebuiltRow
 * @property {string} library
 * @property {number} sourceBytes
 * @property {number} encodeHereMs the Worker's miss without a prebuilt file
 * @property {number} verifyMs a prebuilt file under BINAST_PREBUILT=verify
 * @property {number} trustMs a prebuilt file under BINAST_PREBUILT=trust
 */

const settings = /** @type {const} */ ({ layout: 'context', lazyLevel: 0 });
const median = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? 0;

/** Throws unless the prebuilt file was made from `sourceBytes`: the checks both modes share. */
async function readChecked(/** @type {Uint8Array} */ file, /** @type {Uint8Array} */ sourceBytes) {
  const read = await readPrebuilt(file);
  if (!read.ok || read.header.source !== (await sha256OfBytes(sourceBytes))) throw new Error('prebuilt file refused');
  return read.encoding;
}

/** Measures every corpus library; prints a table and writes the results. @param {string} resultsDir */
export async function measurePrebuilt(resultsDir, runs = 5) {
  /** @type {PrebuiltRow[]} */
  const rows = [];
  for (const library of libraries) {
    const sourceBytes = new Uint8Array(readFileSync(library.path));
    const source = new TextDecoder().decode(sourceBytes);
    const { program, sourceType } = parseForPath(source, library.path);
    const file = await writePrebuilt(sourceBytes, encodeProgram(program, settings), settings);
    /** @type {{ here: number[], verify: number[], trust: number[] }} */
    const times = { here: [], verify: [], trust: [] };
    for (let run = 0; run < runs; run++) {
      let start = performance.now();
      const parsed = parseForPath(source, library.path);
      verifyEncoding(parsed.program, parsed.sourceType, encodeProgram(parsed.program, settings), decodeToJavaScript);
      times.here.push(performance.now() - start);
      start = performance.now();
      const encoding = await readChecked(file, sourceBytes);
      const reparsed = parseForPath(source, library.path);
      verifyEncoding(reparsed.program, sourceType, encoding, decodeToJavaScript);
      times.verify.push(performance.now() - start);
      start = performance.now();
      await readChecked(file, sourceBytes);
      times.trust.push(performance.now() - start);
    }
    rows.push({
      library: library.name,
      sourceBytes: sourceBytes.byteLength,
      encodeHereMs: Number(median(times.here).toFixed(1)),
      verifyMs: Number(median(times.verify).toFixed(1)),
      trustMs: Number(median(times.trust).toFixed(2)),
    });
  }
  const lines = [
    ['library', 'source B', 'encode here ms', 'prebuilt verify ms', '×', 'prebuilt trust ms', '×'],
    ...rows.map((row) => [
      row.library,
      row.sourceBytes,
      row.encodeHereMs,
      row.verifyMs,
      (row.verifyMs / row.encodeHereMs).toFixed(2),
      row.trustMs,
      (row.trustMs / row.encodeHereMs).toFixed(3),
    ]),
  ];
  process.stdout.write(
    `\nWorker CPU on a miss, per script (median of ${runs}, Node, same Wasm build as the Worker)\n${alignedTable(lines)}\n`,
  );
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(
    join(resultsDir, 'binast-prebuilt.json'),
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, runs, rows }, null, 2)}\n`,
  );
  const columns = /** @type {(keyof PrebuiltRow)[]} */ (Object.keys(rows[0] ?? {}));
  writeFileSync(
    join(resultsDir, 'binast-prebuilt.csv'),
    `${[columns.join(','), ...rows.map((row) => columns.map((column) => row[column]).join(','))].join('\n')}\n`,
  );
  process.stdout.write('wrote bench/results/binast-prebuilt.json and bench/results/binast-prebuilt.csv\n');
  return rows;
}

// `node bench/binast/prebuilt.mjs`: this measurement alone.
if (import.meta.url === `file://${process.argv[1]}`) {
  await measurePrebuilt(join(new URL('../results', import.meta.url).pathname));
}
