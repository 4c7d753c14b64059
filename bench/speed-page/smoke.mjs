// The Speed Page smoke for `npm test`: the demo site, one run, the desktop profile, two variants (origin direct and
// the Worker with everything off) through the whole lab, then checks of what came out. Prints `N passed, N failed`,
// or `SKIP speed-page smoke: <reason>` where network namespaces cannot be had.
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { canCreateNamespaces } from '../lib/shaped-link.mjs';
import { runLab } from './lab.mjs';
import { writeResults } from './results.mjs';
import { linkOptions } from './rtt.mjs';
import { buildSite } from './site/build.mjs';
import { startStaticOrigin } from './site/origin.mjs';

const outDir = join(repoRoot, 'reports', 'speed-page-smoke');

const possible = await canCreateNamespaces(linkOptions);
if (!possible.ok) {
  process.stdout.write(`SKIP speed-page smoke: ${possible.reason}\n`);
  process.exit(0);
}
// A free port and the caller's namespace prefix, so smokes of several checkouts can run at once.
const origin = await startStaticOrigin({ port: 0, root: await buildSite() });
const originPort = /** @type {import('node:net').AddressInfo} */ (origin.address()).port;
/** @type {boolean[]} */
const checks = [];
/** @param {string} name @param {boolean} ok */
const check = (name, ok, detail = '') => {
  checks.push(ok);
  process.stdout.write(`${ok ? '✔' : '✘'} ${name}${detail ? ` (${detail})` : ''}\n`);
};
try {
  const measured = await runLab({
    url: new URL(`http://127.0.0.1:${originPort}/`),
    runs: 1,
    profiles: ['desktop'],
    features: [],
    prefix: process.env.SPEED_PAGE_PREFIX ? `${process.env.SPEED_PAGE_PREFIX}smk` : 'skspsmk',
    say: (line) => process.stdout.write(`${line}\n`),
  });
  rmSync(outDir, { recursive: true, force: true });
  writeResults({ url: 'demo', site: 'demo', outDir, measured, runsPerVariant: 1, notes: ['npm test smoke'] });
  for (const variant of ['origin', 'worker-off']) {
    const run = measured.runs.find((r) => r.variant === variant);
    check(`${variant}: the page loaded`, Boolean(run && !run.error), run?.error ?? '');
    if (!run || run.error) continue;
    check(`${variant}: hero is the LCP element`, run.lcpElement.includes('hero'), run.lcpElement);
    const gapPct = Math.abs(run.speedIndexVsSpeedlinePct);
    check(`${variant}: Speed Index within 5 % of speedline-core`, gapPct < 5, `${gapPct.toFixed(1)} %`);
    check(`${variant}: all 11 photos loaded`, run.byClass.image.requests >= 11, `${run.byClass.image.requests} images`);
  }
  check(
    'protocols: HTTP/1.1 direct, HTTP/2 through the Worker',
    measured.runs.find((r) => r.variant === 'origin')?.protocol === 'http/1.1' &&
      measured.runs.find((r) => r.variant === 'worker-off')?.protocol === 'h2',
  );
  check('report written', existsSync(join(outDir, 'report.html')), join(outDir, 'report.html'));
} catch (error) {
  check('the lab ran', false, error instanceof Error ? error.message : String(error));
} finally {
  origin.close();
}
const passed = checks.filter(Boolean).length;
process.stdout.write(`${passed} passed, ${checks.length - passed} failed\n`);
process.exit(checks.length > passed ? 1 : 0);
