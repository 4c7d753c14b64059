// Lighthouse for the page bench, installed on first use from the npm registry into the per-user tool cache (keyed by
// version, like every tool of scripts/setup.mjs). It is not a devDependency: it is ~190 MB that nothing else needs.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cacheRoot, paths, toolEnv } from '../../scripts/lib/tools.mjs';
import { chromiumArgs } from '../lib/chromium.mjs';

export const lighthouseVersion = '12.8.2';
const prefix = join(cacheRoot, `lighthouse-${lighthouseVersion}`);
const cli = join(prefix, 'node_modules', 'lighthouse', 'cli', 'index.js');

/** Installs Lighthouse if missing; returns the reason when it cannot. @returns {string | null} */
export function ensureLighthouse() {
  if (existsSync(cli)) return null;
  const started = Date.now();
  const install = spawnSync(
    'npm',
    ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `lighthouse@${lighthouseVersion}`],
    { env: toolEnv(), encoding: 'utf8' },
  );
  if (install.status !== 0 || !existsSync(cli)) {
    return `npm install lighthouse@${lighthouseVersion} failed: ${(install.stderr || install.stdout).trim().split('\n').at(-1)}`;
  }
  process.stdout.write(
    `installed lighthouse ${lighthouseVersion} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return null;
}

/**
 * One Lighthouse mobile run (its default Moto G power profile: 412 px, 4× CPU) with DevTools throttling, i.e. real
 * CPU and network throttling applied to the live page. The default simulated throttling cannot score a speed test:
 * it replays the test's own hundreds of MB over a simulated slow link.
 * @param {string} url @param {string} outputPath JSON report
 */
export function runLighthouse(url, outputPath) {
  const run = spawnSync(
    'node',
    [
      cli,
      url,
      '--only-categories=performance',
      '--throttling-method=devtools',
      '--output=json',
      `--output-path=${outputPath}`,
      '--quiet',
      `--chrome-flags=${chromiumArgs.join(' ')}`,
    ],
    { env: { ...toolEnv(), CHROME_PATH: paths.chromium }, encoding: 'utf8', timeout: 240_000 },
  );
  if (run.status !== 0) throw new Error(`lighthouse failed: ${(run.stderr || run.stdout).trim().slice(-400)}`);
  const report = JSON.parse(readFileSync(outputPath, 'utf8'));
  const audit = (/** @type {string} */ id) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: Math.round((report.categories.performance?.score ?? Number.NaN) * 100),
    cls: audit('cumulative-layout-shift'),
    tbtMs: audit('total-blocking-time'),
    lcpMs: audit('largest-contentful-paint'),
    ttiMs: audit('interactive'),
    longestTaskMs: Math.max(
      0,
      ...(report.audits['long-tasks']?.details?.items ?? []).map(
        (/** @type {{ duration: number }} */ item) => item.duration,
      ),
    ),
  };
}
