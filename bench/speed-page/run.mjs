// `npm run speed-page -- [url] [--runs N] [--profiles desktop,mobile] [--features images,priority,binast,all]`:
// what each of speedkit's features does to a page, as filmstrips and numbers. With no URL it measures the demo
// article site in bench/speed-page/site. See docs/speed-page.md.
import { help, OptionError, parseCli, usage } from './cli.mjs';
import { preflight, runLab } from './lab.mjs';
import { prepareOutDir, siteName, summaryText, writeResults } from './results.mjs';
import { buildSite } from './site/build.mjs';
import { startStaticOrigin } from './site/origin.mjs';

/** Network-namespace prefix of the shaped link (≤ 10 chars, [a-z0-9]): set it when several labs share a machine. */
const prefix = process.env.SPEED_PAGE_PREFIX ?? 'skspage';

/** @param {string} line */
const say = (line) => process.stdout.write(`${line}\n`);

async function main() {
  const options = parseCli(process.argv.slice(2));
  if (options.help) {
    say(help);
    return;
  }
  // Checked here, before the demo site is built and the site reached: the shaped link refused it only once the lab
  // had started, as a "prefix" the user never named.
  if (!/^[a-z0-9]{1,10}$/.test(prefix)) {
    throw new Error(
      `SPEED_PAGE_PREFIX must be 1-10 characters of [a-z0-9] (it names the lab's network namespaces), got "${prefix}"`,
    );
  }
  // Before any run: a report folder that cannot be written would lose them all at the end.
  if (options.outDir !== null) prepareOutDir(options.outDir);
  let demoOrigin = null;
  let url = options.url;
  if (url === null) {
    const root = await buildSite();
    // Any free port: two labs on one machine must not collide (the namespaces reach it through the bridge).
    demoOrigin = await startStaticOrigin({ port: 0, root });
    url = new URL(`http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (demoOrigin.address()).port}/`);
    say(`demo site: ${root} served at ${url.href}`);
  }
  try {
    await preflight(url);
    const startMs = performance.now();
    say(
      `Speed Page for ${url.href}: ${options.runs} run(s) × profiles ${options.profiles.join(', ')} × features ${options.features.join(', ')}`,
    );
    const measured = await runLab({
      url,
      runs: options.runs,
      timeoutMs: options.timeoutS * 1000,
      profiles: options.profiles,
      features: options.features,
      prefix,
      thirdParties: options.thirdParties,
      say,
    });
    const notes = [
      'Each Worker variant is a chain of the standalone Workers (wrangler dev --env <capability>, workerd) behind an HTTP/2 front that honours priority headers; "Worker, all off" is the images Worker confined to no path (one hop), "All on" is three hops.',
      'Measured on a shared 2-core machine: compare variants within this report, not across machines.',
      options.thirdParties
        ? 'Third parties (other hosts) were loaded through this machine, across the same shaped link.'
        : 'Third parties (other hosts) were left unreachable (--no-third-parties).',
    ];
    const { dir, summary } = writeResults({
      url: url.href,
      site: siteName(options.url),
      outDir: options.outDir,
      measured,
      runsPerVariant: options.runs,
      notes,
    });
    say(summaryText(summary));
    const failed = measured.runs.filter((r) => r.error).length;
    const gapsPct = measured.runs.filter((r) => !r.error).map((r) => Math.abs(r.speedIndexVsSpeedlinePct));
    if (gapsPct.length > 0) {
      const worstPct = Math.max(...gapsPct);
      say(
        `\nSpeed Index vs speedline-core on the same frames: largest gap ${worstPct.toFixed(1)} % over ${gapsPct.length} runs` +
          (worstPct > 5 ? ' — ABOVE 5 %: check runs.csv (speedIndexVsSpeedlinePct)' : ''),
      );
    }
    // Requests that failed (e.g. to third parties this machine cannot reach, or all of them with --no-third-parties):
    // the numbers are of a page without them.
    const failedRequests = new Set(
      measured.runs.flatMap((r) => r.failedRequests ?? []).filter((request) => !request.endsWith('/favicon.ico')),
    );
    if (failedRequests.size > 0) {
      say(
        `\nWARNING: ${failedRequests.size} request(s) failed during the runs; the figures are of the page without them:`,
      );
      for (const request of [...failedRequests].slice(0, 10)) say(`  ${request}`);
    }
    // Requests the lab's front sent twice because wrangler dev dropped the first without an answer: the runs count,
    // with the retry's delay in them (docs/speed-page.md, "Requests wrangler dev drops").
    const retried = measured.runs.filter((r) => (r.labRetries ?? []).length > 0);
    if (retried.length > 0) {
      say(`\nWARNING: in ${retried.length} run(s) wrangler dev dropped requests and the lab sent them again:`);
      for (const r of retried.slice(0, 5)) say(`  ${r.profile} ${r.variant} run ${r.run}: ${r.labRetries.join('; ')}`);
    }
    // Script errors a variant raises and "Worker, all off" does not: that variant broke the page, whatever it saved.
    const errorsOf = (/** @type {string} */ variant) =>
      new Set(measured.runs.filter((r) => r.variant === variant).flatMap((r) => r.pageErrors ?? []));
    const baseline = errorsOf('worker-off');
    for (const variant of new Set(measured.runs.map((r) => r.variant))) {
      const added = [...errorsOf(variant)].filter((message) => !baseline.has(message));
      if (added.length > 0) {
        say(`\nWARNING: ${variant} raised script errors the page without it does not — it broke the page:`);
        for (const message of added.slice(0, 5)) say(`  ${message}`);
      }
    }
    say(
      `\n${measured.runs.length - failed} runs measured, ${failed} failed, in ${((performance.now() - startMs) / 1000).toFixed(0)} s`,
    );
    say(`report: ${dir}/report.html`);
    say(`data:   ${dir}/runs.csv, runs.json, summary.json`);
    if (failed > 0 && failed === measured.runs.length) process.exitCode = 1;
  } finally {
    demoOrigin?.close();
  }
}

main().catch((error) => {
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`speed-page: ${message}\n`);
  if (error instanceof Error && process.env.SPEED_PAGE_DEBUG) process.stderr.write(`${error.stack}\n`);
  // Only a command-line mistake gets the usage line (some messages end with it already); a site that cannot be
  // reached or a lab that failed does not.
  if (error instanceof OptionError && !message.includes(usage))
    process.stderr.write(`${usage} (--help explains them)\n`);
  process.exit(1);
});
