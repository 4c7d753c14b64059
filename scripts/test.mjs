// Runs every test suite in turn, keeps going after a failure, and ends with one `N passed, N failed, N skipped` line
// that CI reads (vitest and Playwright print closing lines CI cannot parse, so their JSON reports are summed here).
// Every skipped test or suite is named above that line with its reason; with SPEEDKIT_FAIL_ON_SKIP=1 (set by .ci/run
// as root, where setup can install everything) a skip fails the run.
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { exec } from './lib/exec.mjs';
import { formatSeconds } from './lib/log.mjs';
import { repoRoot, toolEnv } from './lib/tools.mjs';

const reports = join(repoRoot, 'reports');

/**
 * @typedef {object} Counts
 * @property {number} passed
 * @property {number} failed
 * @property {number} [skipped]
 * @property {string[]} [skips] one line per skipped test or suite: what, and why
 */
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
 * Vitest's skipped tests, by full name. A suite that skips itself says why in its name (see bench/lib/test).
 * @param {{ testResults: { assertionResults: { status: string, fullName: string }[] }[] }} report
 */
function vitestSkips(report) {
  return report.testResults.flatMap((file) =>
    file.assertionResults
      .filter((test) => test.status === 'pending' || test.status === 'skipped' || test.status === 'todo')
      .map((test) => test.fullName),
  );
}

/**
 * Playwright's skipped tests with the reason given to `test.skip(condition, reason)` / `test.fixme`.
 * @typedef {{ title: string, specs?: { title: string, tests: { status: string, annotations: { type: string, description?: string }[] }[] }[], suites?: PlaywrightSuite[] }} PlaywrightSuite
 * @param {{ suites: PlaywrightSuite[] }} report
 */
function playwrightSkips(report) {
  /** @type {string[]} */
  const lines = [];
  /** @param {PlaywrightSuite} suite @param {string} path */
  const walk = (suite, path) => {
    const here = path ? `${path} › ${suite.title}` : suite.title;
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests) {
        if (test.status !== 'skipped') continue;
        const reason = test.annotations.find((a) => a.type === 'skip' || a.type === 'fixme')?.description;
        lines.push(`${here} › ${spec.title}${reason ? ` — ${reason}` : ''}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const suite of report.suites) walk(suite, '');
  return lines;
}

/**
 * The accuracy smoke's own closing line (`N passed, N failed`); a SKIP (no network namespaces here) counts as one
 * skipped check, a crash before the line as a failure.
 * @param {number} code @param {string} output
 */
function smokeCounts(code, output) {
  const skip = output.match(/^SKIP (accuracy testbed.*)$/m);
  if (skip) return { passed: 0, failed: 0, skipped: 1, skips: [skip[1]] };
  const match = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)].at(-1);
  if (!match) return { passed: 0, failed: 1 };
  const counts = { passed: Number(match[1]), failed: Number(match[2]) };
  return code !== 0 && counts.failed === 0 ? { ...counts, failed: 1 } : counts;
}

/**
 * The Speed Page smoke's closing line; a SKIP (no network namespaces) is one skipped check, with the smoke's reason.
 * @param {number} code @param {string} output
 * @returns {Counts}
 */
export function speedPageCounts(code, output) {
  const skip = output.match(/^SKIP speed-page smoke: (.*)$/m);
  if (skip) return { passed: 0, failed: 0, skipped: 1, skips: [skip[1]] };
  return smokeCounts(code, output);
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
          (r) => ({
            passed: r.numPassedTests,
            failed: r.numFailedTests,
            skipped: r.numPendingTests + r.numTodoTests,
            skips: vitestSkips(r),
          }),
          code,
        ),
    },
    {
      // Mutation fuzzing of every parser the Workers expose (bench/fuzz), 36 s in all: 0 crashes, 0 hangs per target.
      name: 'fuzz smoke (7 parsers, 36 s)',
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
            skips: playwrightSkips(r),
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
    {
      // The Speed Page lab end to end on the demo site: one run, desktop, origin direct and Worker-all-off (~2 min).
      name: 'speed-page smoke (demo site, 2 variants)',
      command: 'node',
      args: ['bench/speed-page/smoke.mjs'],
      count: speedPageCounts,
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
  const skipped = results.reduce((sum, r) => sum + (r.counts.skipped ?? 0), 0);
  if (!existsSync(reports)) mkdirSync(reports);
  for (const { name, counts } of results) {
    const lines = counts.skips ?? [];
    for (const line of lines) process.stdout.write(`SKIP ${name}: ${line}\n`);
    const unnamed = (counts.skipped ?? 0) - lines.length;
    if (unnamed > 0) process.stdout.write(`SKIP ${name}: ${unnamed} test(s) skipped without a reason in the report\n`);
  }
  const skipFails = skipped > 0 && process.env.SPEEDKIT_FAIL_ON_SKIP === '1';
  if (skipFails) {
    process.stdout.write(
      `✘ ${skipped} skipped where setup could install everything (SPEEDKIT_FAIL_ON_SKIP=1): a skip here is a failure\n`,
    );
  }
  process.stdout.write(`\n${passed} passed, ${failed} failed, ${skipped} skipped\n`);
  return failed === 0 && !skipFails && results.length > 0;
}
