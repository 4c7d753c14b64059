// What a run saved with `--samples` (bench/results/accuracy/<name>-samples/*.json) is: its rows in the run's
// <name>.json beside that directory (truth, profile), for the ad-hoc replay tools.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A profile id as the bench names its samples files. @param {string} profile */
export function sampleName(profile) {
  return profile.replace(/[^\w.]+/g, '_');
}

/**
 * The run's JSON rows of a samples file (its profile, engine and repetition), and the profile's settings; null when
 * the run's JSON is missing or unreadable.
 * @param {string} file
 * @returns {{ rows: any[], profile: any } | null}
 */
export function recordedRows(file) {
  const runJson = `${dirname(file).replace(/-samples$/, '')}.json`;
  let run;
  try {
    run = JSON.parse(readFileSync(runJson, 'utf8'));
  } catch {
    return null;
  }
  const name = basename(file, '.json');
  const rows = run.rows.filter(
    (/** @type {any} */ row) => `${sampleName(row.profile)}-${row.engine}-${row.repetition}` === name,
  );
  const id = rows[0]?.profile;
  return { rows, profile: run.meta?.profiles?.find((/** @type {any} */ p) => p.id === id) ?? null };
}

/**
 * The truth of a samples file's run and repetition, per direction.
 * @param {string} file
 */
export function truthFor(file) {
  const recorded = recordedRows(file);
  if (!recorded) return null;
  return (/** @type {string} */ direction) =>
    recorded.rows.find((/** @type {any} */ row) => row.metric === direction && Number.isFinite(row.truth))?.truth ??
    null;
}

/**
 * The samples files the replay tools were given: each directory's `.json` files, each file as it is.
 * @param {string[]} paths
 */
export function sampleFiles(paths) {
  return paths.flatMap((path) =>
    statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.json'))
          .map((name) => join(path, name))
      : [path],
  );
}
