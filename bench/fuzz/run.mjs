// `npm run bench:fuzz -- --minutes N` (or `--seconds N`): mutation fuzzing of every parser the Workers expose to the
// network, seeded from the real fixtures, for N minutes split evenly over the targets. Reports per target the
// executions, crashes (exceptions, Wasm traps, broken properties), hangs (one input over 1 s) and the slowest input;
// prints a table, writes bench/results/fuzz.{csv,json} (`--smoke`: reports/fuzz-smoke.{csv,json}) and ends with
// `N passed, N failed` (a target passes with 0 crashes and 0 hangs). `--seed S` replays a run.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { loadTargets } from './targets.mjs';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const hangMs = 1000;
const examplesKept = 3;
const batchSize = 50;

/** @param {string[]} argv */
function parseArgs(argv) {
  const args = { seconds: 60, smoke: false, seed: Date.now() % 2 ** 31 };
  for (let i = 0; i < argv.length; i += 1) {
    const value = Number(argv[i + 1]);
    if (argv[i] === '--minutes') args.seconds = value * 60;
    else if (argv[i] === '--seconds') args.seconds = value;
    else if (argv[i] === '--seed') args.seed = value;
    else if (argv[i] === '--smoke') args.smoke = true;
    else continue;
    if (argv[i] !== '--smoke') i += 1;
  }
  if (!(args.seconds > 0)) throw new Error('--minutes / --seconds must be a positive number');
  return args;
}

/** @typedef {{ kind: 'crash', error: string, input: string } | { kind: 'hang', ms: number, input: string }} Example */

/**
 * Runs one target until its deadline; never stops at the first crash, so the counts mean something.
 * @param {import('./targets.mjs').Target} target
 * @param {number} seconds
 * @param {number} seed
 */
async function fuzz(target, seconds, seed) {
  const endMs = performance.now() + seconds * 1000;
  const result = {
    target: target.name,
    seeds: target.seeds,
    executions: 0,
    crashes: 0,
    hangs: 0,
    slowestMs: 0,
    slowestInput: '',
    /** @type {Example[]} */
    examples: [],
  };
  for (let batch = 0; performance.now() < endMs; batch += 1) {
    for (const input of fc.sample(target.arbitrary, { numRuns: batchSize, seed: seed + batch })) {
      const startMs = performance.now();
      /** @type {unknown} */
      let failure;
      try {
        await target.run(input);
      } catch (error) {
        failure = error;
      }
      const elapsedMs = performance.now() - startMs;
      result.executions += 1;
      if (elapsedMs > result.slowestMs) {
        result.slowestMs = elapsedMs;
        result.slowestInput = target.describe(input);
      }
      if (failure !== undefined) {
        result.crashes += 1;
        if (result.examples.length < examplesKept)
          result.examples.push({
            kind: 'crash',
            error: String(/** @type {{ stack?: string } | null | undefined} */ (failure)?.stack ?? failure)
              .split('\n')
              .slice(0, 3)
              .join(' | '),
            input: target.describe(input),
          });
        await target.recover?.(failure);
      }
      if (elapsedMs > hangMs) {
        result.hangs += 1;
        if (result.examples.length < examplesKept)
          result.examples.push({ kind: 'hang', ms: Math.round(elapsedMs), input: target.describe(input) });
      }
      if (performance.now() >= endMs) break;
    }
  }
  return result;
}

const args = parseArgs(process.argv.slice(2));
const targets = await loadTargets();
const perTargetSeconds = args.seconds / targets.length;
console.log(
  `fuzzing ${targets.length} targets for ${args.seconds} s (${perTargetSeconds.toFixed(1)} s each), seed ${args.seed}`,
);
const rows = [];
for (const target of targets) {
  const row = await fuzz(target, perTargetSeconds, args.seed);
  rows.push(row);
  console.log(`  ${row.target}: ${row.executions} executions, ${row.crashes} crashes, ${row.hangs} hangs`);
  for (const example of row.examples)
    console.log(
      `    ${example.kind}: ${example.kind === 'crash' ? example.error : `${example.ms} ms`} ← ${example.input}`,
    );
}

console.log('\n| target | seeds | executions | exec/s | crashes | hangs (> 1 s) | slowest ms | slowest input |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const row of rows) {
  const perSecond = Math.round(row.executions / perTargetSeconds);
  console.log(
    `| ${row.target} | ${row.seeds} | ${row.executions} | ${perSecond} | ${row.crashes} | ${row.hangs} | ${row.slowestMs.toFixed(1)} | ${row.slowestInput.replaceAll('|', '\\|')} |`,
  );
}

const outDir = args.smoke ? join(repoRoot, 'reports') : join(repoRoot, 'bench', 'results');
const name = args.smoke ? 'fuzz-smoke' : 'fuzz';
mkdirSync(outDir, { recursive: true });
const run = {
  date: new Date().toISOString(),
  seconds: args.seconds,
  seed: args.seed,
  hangMs,
  node: process.version,
  rows,
};
writeFileSync(join(outDir, `${name}.json`), `${JSON.stringify(run, null, 2)}\n`);
const csv = ['target,seeds,executions,crashes,hangs,slowest_ms,slowest_input'];
for (const row of rows)
  csv.push(
    [
      row.target,
      row.seeds,
      row.executions,
      row.crashes,
      row.hangs,
      row.slowestMs.toFixed(1),
      JSON.stringify(row.slowestInput),
    ].join(','),
  );
writeFileSync(join(outDir, `${name}.csv`), `${csv.join('\n')}\n`);
console.log(`\nwrote ${join(outDir, `${name}.{csv,json}`)}`);
const failed = rows.filter((row) => row.crashes > 0 || row.hangs > 0).length;
console.log(`${rows.length - failed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
