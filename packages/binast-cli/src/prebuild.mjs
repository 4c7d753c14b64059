// `binast prebuild <dir>`: a prebuilt file beside every script of a build output, for the BinaryAST Worker to serve
// without encoding (workers/src/binast/prebuilt.ts). Each encoding is checked as the Worker checks its own (decoded,
// re-parsed, the same tree) before it is written; a script that cannot be encoded loses any old prebuilt file, so a
// stale one is never left beside it.
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { prebuiltSuffix, writePrebuilt } from '@speedkit/binast/prebuilt';
import { encodeChecked } from './codec.mjs';

/** Scripts the Worker negotiates: the same two extensions (workers/src/binast/middleware.ts). */
const isScript = (/** @type {string} */ name) => name.endsWith('.js') || name.endsWith('.mjs');

/**
 * Every script under `dir`, depth first, in name order; symbolic links are not followed (a link out of the build
 * would write beside someone else's files).
 * @param {string} dir
 * @returns {string[]}
 */
function scriptsUnder(dir) {
  /** @type {string[]} */
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...scriptsUnder(path));
    else if (entry.isFile() && isScript(entry.name)) found.push(path);
  }
  return found;
}

/**
 * @typedef {{ script: string, sourceBytes: number, encodedBytes?: number, skipped?: string }} PrebuildRow
 */

/**
 * Writes `<script>.binast` for every script under `dir` that encodes and verifies; removes it for the others.
 * @param {string} dir
 * @param {{ layout: import('@speedkit/binast').Layout, lazyLevel: number }} settings
 * @returns {Promise<PrebuildRow[]>}
 */
export async function prebuild(dir, settings) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  /** @type {PrebuildRow[]} */
  const rows = [];
  for (const script of scriptsUnder(dir)) {
    const sourceBytes = new Uint8Array(readFileSync(script));
    const target = `${script}${prebuiltSuffix}`;
    const name = relative(dir, script);
    try {
      const encoding = encodeChecked(sourceBytes, script, { ...settings, forLoader: true });
      writeFileSync(target, await writePrebuilt(sourceBytes, encoding, settings));
      rows.push({ script: name, sourceBytes: sourceBytes.byteLength, encodedBytes: encoding.byteLength });
    } catch (error) {
      rmSync(target, { force: true });
      const reason = error instanceof Error ? error.message : String(error);
      rows.push({ script: name, sourceBytes: sourceBytes.byteLength, skipped: reason.split('\n')[0] ?? reason });
    }
  }
  return rows;
}

/**
 * The rows as the table the command prints, with a closing line.
 * @param {PrebuildRow[]} rows
 */
export function prebuildTable(rows) {
  const lines = rows.map((row) =>
    row.encodedBytes === undefined
      ? `  skipped  ${row.script} (${row.sourceBytes} B): ${row.skipped}`
      : `  wrote    ${row.script}${prebuiltSuffix} (${row.sourceBytes} B → ${row.encodedBytes} B, ${(row.encodedBytes / Math.max(1, row.sourceBytes)).toFixed(3)}×)`,
  );
  const written = rows.filter((row) => row.encodedBytes !== undefined).length;
  lines.push(`${written} prebuilt, ${rows.length - written} skipped (served as JavaScript or encoded by the Worker)`);
  return `${lines.join('\n')}\n`;
}
