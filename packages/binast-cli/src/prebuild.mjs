// `binast prebuild <dir>`: a prebuilt file beside every script of a build output, for the BinaryAST Worker to serve
// without encoding (workers/src/binast/prebuilt.ts). Each encoding is checked as the Worker checks its own (decoded,
// re-parsed, the same tree) before it is written; a script that cannot be encoded loses any old prebuilt file, so a
// stale one is never left beside it.
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { prebuiltSuffix, writePrebuilt } from '@speedkit/binast/prebuilt';
import { encodeChecked } from './codec.mjs';

/** Scripts the Worker negotiates: the same two extensions (workers/src/binast/middleware.ts). */
const isScript = (/** @type {string} */ name) => name.endsWith('.js') || name.endsWith('.mjs');

/**
 * Every script under `dir`, depth first, in name order. A symbolic link to a script is one (the server sends what
 * it points at; its prebuilt file is written beside the link, never through it); links to folders are not followed
 * (a link out of the build would write beside someone else's files) and come back as `linkedFolders`, with links
 * that point nowhere as `broken`, so the table can say what it left.
 * @param {string} dir
 * @param {{ scripts: string[], linkedFolders: string[], broken: string[] }} [found]
 */
function scriptsUnder(dir, found = { scripts: [], linkedFolders: [], broken: [] }) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) scriptsUnder(path, found);
    else if (entry.isFile() && isScript(entry.name)) found.scripts.push(path);
    else if (entry.isSymbolicLink()) {
      let target;
      try {
        target = statSync(path, { throwIfNoEntry: false });
      } catch {
        // A loop of links (ELOOP): as unservable as a link to nothing, and no reason to stop the run.
      }
      if (target?.isDirectory()) found.linkedFolders.push(path);
      else if (isScript(entry.name)) (target?.isFile() ? found.scripts : found.broken).push(path);
    }
  }
  return found;
}

/**
 * One script's outcome: `encodedBytes` when its prebuilt file was written, `skipped` (why it does not encode) when
 * it is left to the Worker, `failed` when the file system refused a write or removal (the run then exits 1: what
 * is deployed would not be what the table says).
 * @typedef {{ script: string, sourceBytes?: number, encodedBytes?: number, skipped?: string, failed?: string }} PrebuildRow
 */

const messageOf = (/** @type {unknown} */ error) => {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
};

/**
 * Replaces `target` with `bytes` by renaming a complete file over it: a run stopped half-way leaves no truncated
 * prebuilt file, and a symbolic link at `target` is replaced, never written through to whatever it points at.
 * @param {string} target
 * @param {Uint8Array} bytes
 */
function replaceFile(target, bytes) {
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, bytes, { flag: 'wx' });
  try {
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/**
 * Writes `<script>.binast` for every script under `dir` that encodes and verifies; removes it for the others.
 * A file-system error on one script is its row's `failed`, and the others are still done. `onRow` hears of each
 * script as soon as it is done: one large script can take minutes (16 MB: 97 s), and a run that dies of it
 * should have said which scripts it had done.
 * @param {string} dir
 * @param {{ layout: import('@speedkit/binast').Layout, lazyLevel: number }} settings
 * @param {(row: PrebuildRow) => void} [onRow]
 * @returns {Promise<PrebuildRow[]>}
 */
export async function prebuild(dir, settings, onRow = () => {}) {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  /** @type {PrebuildRow[]} */
  const rows = [];
  const report = (/** @type {PrebuildRow} */ row) => {
    rows.push(row);
    onRow(row);
  };
  const { scripts, linkedFolders, broken } = scriptsUnder(dir);
  for (const link of linkedFolders) {
    report({
      script: `${relative(dir, link)}/`,
      skipped: 'a link to a folder, not followed (its scripts are left to the Worker)',
    });
  }
  for (const link of broken)
    report({ script: relative(dir, link), skipped: 'a symbolic link to nothing (or to itself)' });
  for (const script of scripts) {
    const target = `${script}${prebuiltSuffix}`;
    const name = relative(dir, script);
    let sourceBytes;
    try {
      sourceBytes = new Uint8Array(readFileSync(script));
    } catch (error) {
      report({ script: name, failed: `reading it: ${messageOf(error)}` });
      continue;
    }
    let encoding;
    try {
      // By its name in the build: the reasons that name the script then read as the table does.
      encoding = encodeChecked(sourceBytes, name, { ...settings, forLoader: true });
    } catch (error) {
      /** @type {PrebuildRow} */
      const row = { script: name, sourceBytes: sourceBytes.byteLength, skipped: messageOf(error) };
      try {
        rmSync(target, { force: true });
      } catch (removal) {
        row.failed = `removing the stale ${name}${prebuiltSuffix}: ${messageOf(removal)}`;
      }
      report(row);
      continue;
    }
    try {
      replaceFile(target, await writePrebuilt(sourceBytes, encoding, settings));
      report({ script: name, sourceBytes: sourceBytes.byteLength, encodedBytes: encoding.byteLength });
    } catch (error) {
      const failed = `writing ${name}${prebuiltSuffix}: ${messageOf(error)}`;
      report({ script: name, sourceBytes: sourceBytes.byteLength, failed });
    }
  }
  return rows;
}

/**
 * The Worker's default limits (`defaultConfig` in workers/src/binast/config.ts): under `BINAST_PREBUILT=verify` it
 * checks prebuilt files of scripts up to `BINAST_MAX_SOURCE_BYTES`, under `trust` up to `BINAST_MAX_PREBUILT_BYTES`.
 * Past them the file is written all the same (a deployment may raise them), with a word on the line: on the
 * defaults the Worker ignores it, and says so only in its own log.
 */
const workerDefaults = { maxSourceBytes: 1024 * 1024, maxPrebuiltBytes: 16 * 1024 * 1024 };

/**
 * What the Worker's default limits make of a prebuilt file for a script of `sourceBytes`, when it is not simply used.
 * @param {number} sourceBytes
 */
function limitNote(sourceBytes) {
  if (sourceBytes > workerDefaults.maxPrebuiltBytes) {
    return "; over the Worker's default BINAST_MAX_PREBUILT_BYTES (16 MiB): ignored unless it is raised";
  }
  if (sourceBytes > workerDefaults.maxSourceBytes) {
    return "; over the Worker's default BINAST_MAX_SOURCE_BYTES (1 MiB): used with BINAST_PREBUILT=trust or a higher limit";
  }
  return '';
}

/**
 * One row as the line the command prints for it.
 * @param {PrebuildRow} row
 */
export function prebuildLine(row) {
  const size = row.sourceBytes === undefined ? '' : ` (${row.sourceBytes} B)`;
  if (row.failed !== undefined) return `  FAILED   ${row.script}${size}: ${row.failed}\n`;
  if (row.encodedBytes === undefined) return `  skipped  ${row.script}${size}: ${row.skipped}\n`;
  const sourceBytes = row.sourceBytes ?? 0;
  const ratio = (row.encodedBytes / Math.max(1, sourceBytes)).toFixed(3);
  const note = limitNote(sourceBytes);
  return `  wrote    ${row.script}${prebuiltSuffix} (${sourceBytes} B → ${row.encodedBytes} B, ${ratio}×${note})\n`;
}

/**
 * The closing line: how many scripts went which way.
 * @param {PrebuildRow[]} rows
 */
export function prebuildSummary(rows) {
  const written = rows.filter((row) => row.encodedBytes !== undefined).length;
  const failed = rows.filter((row) => row.failed !== undefined).length;
  const skipped = rows.length - written - failed;
  const failures = failed > 0 ? `, ${failed} FAILED (file system errors above)` : '';
  return `${written} prebuilt, ${skipped} skipped (served as JavaScript or encoded by the Worker)${failures}\n`;
}
