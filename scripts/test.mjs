// Runs every test suite in turn, keeps going after a failure, and ends with one `N passed, N failed` line that CI
// reads (vitest and Playwright print closing lines CI cannot parse, so their JSON reports are summed here).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exec } from './lib/exec.mjs';
import { formatSeconds } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';

const reports = join(repoRoot, 'reports');

/** @typedef {{ passed: number, failed: number, skipped?: number }} Counts */
/**
 * @typedef {object} Suite
 * @property {string} name
 * @property {string} command
 * @property {string[]} args
 * @property {Record<string, string>} [env]
 * @property {(code: number, output: string) => Counts} [count] defaults to one check that passes on exit 0
 */

/** @param {number} code */
const oneCheck = (code) => (code === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 });

/**
 * Reads a JSON report; a missing or unreadable report means the runner crashed, which counts as a failure.
 * @param {string} file
 * @param {(report: any) => Counts} pick
 * @param {number} code
 */
function fromReport(file, pick, code) {
  try {
    const counts = pick(JSON.parse(readFileSync(file, 'utf8')));
    if (code !== 0 && counts.failed === 0) return { ...counts, failed: 1 };
    return counts;
  } catch {
    return { passed: 0, failed: 1 };
  }
}

/** Sums every `test result:` line of cargo test (unit, integration and doc tests). @param {string} output */
function cargoCounts(/** @type {number} */ code, output) {
  let passed = 0;
  let failed = 0;
  for (const match of output.matchAll(/test result: \w+\. (\d+) passed; (\d+) failed/g)) {
    passed += Number(match[1]);
    failed += Number(match[2]);
  }
  if (code !== 0 && failed === 0) failed = 1;
  return { passed, failed };
}

/**
 * The accuracy smoke's own closing line (`N passed, N failed`); a SKIP (no network namespaces here) counts as one
 * skipped check, a crash before the line as a failure.
 * @param {number} code @param {string} output
 */
function smokeCounts(code, output) {
  if (/^SKIP accuracy testbed/m.test(output)) return { passed: 0, failed: 0, skipped: 1 };
  const match = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  if (!match) return { passed: 0, failed: 1 };
  const counts = { passed: Number(match[1]), failed: Number(match[2]) };
  return code !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

/** Wrangler environments declared in wrangler.toml, each deployable on its own. */
function wranglerEnvironments() {
  const toml = readFileSync(join(repoRoot, 'wrangler.toml'), 'utf8');
  return [...new Set([...toml.matchAll(/^\[env\.([\w-]+)\]/gm)].map((match) => match[1]))];
}

/** @returns {Suite[]} */
function suites() {
  const vitestReport = join(reports, 'vitest.json');
  const e2eReport = join(reports, 'e2e.json');
  const deployTargets = [undefined, ...wranglerEnvironments()];
  return [
    { name: 'biome (lint + format)', command: 'biome', args: ['ci', '.'] },
    { name: 'typescript (tsc -b, strict)', command: 'tsc', args: ['-b'] },
    { name: 'cargo fmt --check', command: 'cargo', args: ['fmt', '--all', '--check'] },
    {
      name: 'cargo clippy -D warnings',
      command: 'cargo',
      args: ['clippy', '--workspace', '--all-targets', '--', '-D', 'warnings'],
    },
    { name: 'cargo test', command: 'cargo', args: ['test', '--workspace'], count: cargoCounts },
    {
      name: 'vitest (workerd + node)',
      command: 'vitest',
      args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestReport}`],
      count: (code) =>
        fromReport(
          vitestReport,
          (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests }),
          code,
        ),
    },
    {
      // Mutation fuzzing of every parser the Workers expose (bench/fuzz), 36 s in all: 0 crashes, 0 hangs per target.
      name: 'fuzz smoke (6 parsers, 36 s)',
      command: 'node',
      args: ['bench/fuzz/run.mjs', '--seconds', '36', '--smoke'],
      count: smokeCounts,
    },
    ...deployTargets.map((target) => ({
      name: `wrangler deploy --dry-run${target ? ` --env ${target}` : ''}`,
      command: 'node',
      args: ['scripts/check-bundle.mjs', ...(target ? [target] : [])],
    })),
    {
      name: 'playwright e2e (Chromium)',
      command: 'playwright',
      args: ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
      env: { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
      count: (code) =>
        fromReport(
          e2eReport,
          (r) => ({
            passed: r.stats.expected + r.stats.flaky,
            failed: r.stats.unexpected,
            skipped: r.stats.skipped,
          }),
          code,
        ),
    },
    {
      // One shaped, delayed condition with ground truth (bench/accuracy): our engine within ±10% of iperf3 and ±3 ms
      // of the latency truth, and both engines finish. Skips itself where namespaces are not allowed.
      name: 'accuracy smoke (shaped link, both engines)',
      command: 'node',
      args: ['bench/accuracy/run.mjs', '--smoke', '--no-build'],
      count: smokeCounts,
    },
  ];
}

/**
 * @param {string[]} only suite name filters from the command line (substring match); empty runs all
 * @returns {Promise<boolean>} true when nothing failed
 */
export async function runTests(only) {
  rmSync(reports, { recursive: true, force: true });
  mkdirSync(reports, { recursive: true });
  const env = toolEnv();
  /** @type {{ name: string, counts: Counts, durationMs: number }[]} */
  const results = [];
  for (const suite of suites()) {
    if (only.length > 0 && !only.some((filter) => suite.name.includes(filter))) continue;
    process.stdout.write(`\n━━ ${suite.name}\n`);
    const startMs = performance.now();
    const { code, output } = await exec(suite.command, suite.args, {
      cwd: repoRoot,
      env: { ...env, ...suite.env },
    });
    const counts = (suite.count ?? oneCheck)(code, output);
    results.push({ name: suite.name, counts, durationMs: performance.now() - startMs });
  }
  process.stdout.write('\n━━ Summary\n');
  for (const { name, counts, durationMs } of results) {
    const mark = counts.failed === 0 ? '✔' : '✘';
    const skipped = counts.skipped ? `, ${counts.skipped} skipped` : '';
    process.stdout.write(
      `${mark} ${name.padEnd(44)} ${counts.passed} passed, ${counts.failed} failed${skipped}  (${formatSeconds(durationMs)})\n`,
    );
  }
  const passed = results.reduce((sum, r) => sum + r.counts.passed, 0);
  const failed = results.reduce((sum, r) => sum + r.counts.failed, 0);
  if (!existsSync(reports)) mkdirSync(reports);
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
  return failed === 0 && results.length > 0;
}
