// Diagnostic for bench:loader's first-visit cells: loads variants of the libraries page, cold, on one shaped profile
// and prints, per sample, when each resource was requested and arrived (Resource Timing, whether it opened a new
// connection) and, with --trace, when each script compiled (streamed or not, V8's reason) and ran (Chromium trace).
// The variants isolate one difference between the plain and the loader page each; they are written next to the demo
// pages in apps/speedtest/dist/demo (build output) for the run and removed after it.
// Usage (root, after `npm run build`): node bench/loader/probe.mjs [--profile 1.6|10|100] [--runs 5] [--prefix P]
//   [--trace] [--repeat | --third | --new-deploy] [--only name,name] [--compare-loader file] [--chromium-arg --flag=value]. Prints each sample and the medians; writes bench/results/loader-probe-<profile>.json.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { createShapedLink } from '../lib/shaped-link.mjs';
import { median, pairedSummary } from './report.mjs';
import { earlierView, loadUntilExecuted, startDecoder } from './views.mjs';

const arg = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? String(process.argv[at + 1]) : fallback;
};
const runs = Number(arg('--runs', '5'));
const prefix = arg('--prefix', 'skprobe');
const trace = process.argv.includes('--trace');
/** One more Chromium switch for every variant (e.g. `--force-effective-connection-type=4G`), to test a lead. */
const chromiumArg = arg('--chromium-arg', '');
/** Measure a repeat view: the page loaded once (and left after its after-load work), then again from the cache. */
const repeat = process.argv.includes('--repeat') || process.argv.includes('--third');
/** Measure the third view (two earlier views): V8 then takes the scripts from the code cache the second produced. */
const earlierViews = process.argv.includes('--third') ? 2 : 1;
/**
 * Measure a new deploy as bench:loader does: an earlier view of the previous deploy (`?deploy=1`) loaded completely,
 * the decoder started after it on every page but the plain ones, then the next deploy (`?deploy=2`, new script URLs).
 */
const newDeploy = process.argv.includes('--new-deploy');
const profiles = {
  1.6: { downMbit: 1.6, upMbit: 0.75, rttMs: 150 },
  10: { downMbit: 10, upMbit: 5, rttMs: 40 },
  100: { downMbit: 100, upMbit: 50, rttMs: 10 },
};
const profile = profiles[/** @type {keyof typeof profiles} */ (/** @type {unknown} */ (arg('--profile', '10')))];

const demo = new URL('../../apps/speedtest/dist/demo/', import.meta.url).pathname;
const plainHtml = readFileSync(join(demo, 'loader-libs-plain.html'), 'utf8');
const loaderHtml = readFileSync(join(demo, 'loader-libs.html'), 'utf8');
const loaderJs = readFileSync(join(demo, 'loader/binast-loader.min.js'), 'utf8');
const loaderTag = '<script src="/demo/loader/binast-loader.min.js"></script>';
const scriptTag = /<script src="([^"]+)"><\/script>/g;
/** @type {Record<string, { jsGzipBytes: number, binastGzipBytes: number }>} per script, from the last bench:loader */
const measuredSizes = JSON.parse(readFileSync(new URL('../results/loader.json', import.meta.url), 'utf8')).sizes;
/** `data-binast-size` as bench/loader/server.mjs writes it (gzip -9 of both formats), per script path */
const sizes = Object.fromEntries(
  Object.entries(measuredSizes).map(([path, size]) => [path, `${size.jsGzipBytes} ${size.binastGzipBytes}`]),
);

/** Variant pages written for the run: name -> HTML (served through bench/loader/server.mjs's size-hint rewriting). */
const pages = {
  // The plain page with the loader's tag in <head> (it finds no opt-in script): the cost of its request alone. Since
  // 2026-11-27 the server moves that tag in front of the page's first script, which is not written back.
  'plain+loader-tag': plainHtml.replace('</title>', `</title>\n    ${loaderTag}`),
  // The loader page with the loader inlined: no request of its own.
  'loader-inline': loaderHtml.replace(
    loaderTag,
    `<script data-decoder="/demo/loader/binast.js">${loaderJs.replace(/<\/script/gi, '<\\/script')}</script>`,
  ),
  // What the loader does on a first visit, by hand: the Worker's preload, then a script inserted (async=false) next
  // to where the plain one was, from a tiny inline script: no loader request, no MutationObserver.
  'plain-inserted': plainHtml.replace(
    scriptTag,
    (_, src) =>
      `<link rel="preload" as="script" href="${src}"><script>{const s=document.createElement('script');s.async=false;s.src=${JSON.stringify(src)};document.currentScript.after(s)}</script>`,
  ),
  // The plain page with the loader's tag made async: its request no longer blocks the parser (nor waits for CSS).
  // Measured 2026-11-26 (10 Mbit/s, 11 and 21 runs, load 4-12): 1.049x and 1.145x the plain page, paired per run,
  // against 1.009x and 1.099x for the blocking tag, so the embed stays parser-blocking.
  'plain+async-loader': plainHtml.replace(
    '</title>',
    `</title>\n    ${loaderTag.replace('<script ', '<script async ')}`,
  ),
  // The written-back loader page with the loader's tag async: what the Worker could send when it knows the loader has
  // nothing to run in order (every opt-in script written back).
  'loader-async': loaderHtml.replace(loaderTag, loaderTag.replace('<script ', '<script async ')),
  // The written-back loader page with the loader's tag (parser-blocking) at the end of <body> instead of <head>: the
  // scripts the browser runs come before it, the loader still records them and runs its after-load work.
  'loader-tag-last': loaderHtml.replace(loaderTag, '').replace('</body>', `${loaderTag}\n  </body>`),
  // The loader page without the loader's tag: the Worker's written-back scripts and size hints alone, no loader.
  'loader-notag': loaderHtml.replace(loaderTag, ''),
  // The plain page with the loader's tag where the Worker moves it on a view whose scripts it all wrote back: after
  // the app, in front of the next script that runs JavaScript (the demo's timing module).
  'plain+tag-last': plainHtml.replace('<script type="module"', `${loaderTag}<script type="module"`),
  // The plain page reading localStorage once from an inline script in <head>, as the loader does at its start.
  'plain+localStorage': plainHtml.replace(
    '</title>',
    '</title>\n    <script>try{localStorage.binastDecoder}catch{}</script>',
  ),
  // The loader page as the Worker wrote it before scripts it runs plain went back to plain tags (2026-11-25): each
  // script preloaded and left to the loader, which inserts it (the server leaves tags with attributes alone).
  'loader-inserted': loaderHtml.replace(
    /<script type="binast" src="([^"]+)"><\/script>/g,
    (_, src) =>
      `<link rel="preload" as="script" href="${src}"><script type="binast" src="${src}" data-binast-size="${sizes[src]}" data-binast-preloaded></script>`,
  ),
  // The plain page with the same preloads as the loader page (preload + parser-inserted script).
  'plain+preloads': plainHtml.replace(scriptTag, (tag, src) => `<link rel="preload" as="script" href="${src}">${tag}`),
};
// `--compare-loader <file>`: another build of binast-loader.min.js (e.g. the one before a change, kept aside), served
// beside the current one, for the loader page with that build (`loader-compare`) in the same interleaved minutes.
const compareLoader = arg('--compare-loader', '');
if (compareLoader) {
  writeFileSync(join(demo, 'loader/h21probe-compare.min.js'), readFileSync(compareLoader));
  Object.assign(pages, {
    'loader-compare': loaderHtml.replace(
      loaderTag,
      loaderTag.replace('binast-loader.min.js', 'h21probe-compare.min.js'),
    ),
  });
}
/** @type {Record<string, string>} */
const variantPaths = {
  plain: '/demo/loader-libs-plain',
  loader: '/demo/loader-libs',
  // The loader page with `data-always`: BinaryAST without the cost model (bench:loader's "forced" row).
  'loader-always': '/demo/loader-libs?always',
  // The loader page whose earlier view starts no decoder after load (the decoder's localStorage mark is set before
  // it, so remember.ts finds it cached): to see what the earlier view's decoder warm-up costs the next view.
  'loader-unwarmed': '/demo/loader-libs',
  // Repeat views only: the plain page measured with the cookies a loader page's earlier view leaves (`withCookies`),
  // and the loader page measured without them (cleared after its earlier views): whether cookies cost a cached view.
  'plain+cookies': '/demo/loader-libs-plain',
  'loader-nocookies': '/demo/loader-libs',
  ...Object.fromEntries(Object.keys(pages).map((name) => [name, `/demo/h21probe-${name}`])),
};
const only = arg('--only', '');
const chosen = Object.keys(variantPaths).filter((name) => !only || only.split(',').includes(name));
for (const [name, html] of Object.entries(pages)) writeFileSync(join(demo, `h21probe-${name}.html`), html);
const cleanup = () => {
  for (const name of Object.keys(pages)) rmSync(join(demo, `h21probe-${name}.html`), { force: true });
  rmSync(join(demo, 'loader/h21probe-compare.min.js'), { force: true });
};
process.on('exit', cleanup);

/** Compile and evaluate events of the page's scripts, from a Chromium trace (ms from navigation start). */
function scriptEvents(/** @type {Buffer} */ buffer, /** @type {number} */ navStartUs) {
  const events = JSON.parse(buffer.toString()).traceEvents ?? [];
  /** @type {Record<string, string[]>} */
  const byScript = {};
  for (const event of events) {
    const data = event.args?.data ?? event.args?.beginData ?? {};
    const url = String(data.url ?? '');
    const match = url.match(/\/(lib\/[\w-]+|loader-app|binast-loader\.min)\.js/);
    if (!match || !['v8.compile', 'EvaluateScript', 'v8.parseOnBackground'].includes(event.name)) continue;
    const key = match[1];
    const at = ((event.ts - navStartUs) / 1000).toFixed(0);
    const dur = event.dur ? `+${(event.dur / 1000).toFixed(0)}` : '';
    const extra =
      event.name === 'v8.compile'
        ? ` streamed=${data.streamed ?? '?'}${data.notStreamedReason ? `(${data.notStreamedReason})` : ''}`
        : '';
    byScript[key] = [...(byScript[key] ?? []), `${event.name}@${at}${dur}${extra}`];
  }
  return byScript;
}

/**
 * What a loader page's earlier view leaves in the cookie jar at 100 Mbit/s (remember.ts: the link it measured, the
 * scripts it ran plain), for the `plain+cookies` variant.
 * @param {string} origin
 */
const withCookies = (origin) =>
  [
    ['binast-link', '87.4'],
    ['binast-plain', '1x0kq3c.0b8sl2f.1h6gq9e.0zq5nmc.17mnbf4'],
  ].map(([name, value]) => ({ name, value, url: `${origin}/` }));

/**
 * How long the page's renderer main thread ran tasks between navigation start and the app's mark: the sum of its
 * top-level tasks' durations, each clipped to that window (the thread that recorded the navigation start).
 * @param {any[]} events
 * @param {{ pid: number, tid: number, ts: number }} navStart
 * @param {number} executedMs
 */
function mainThreadBusyMs(events, navStart, executedMs) {
  const end = navStart.ts + executedMs * 1000;
  let totalUs = 0;
  for (const event of events) {
    if (event.ph !== 'X' || event.pid !== navStart.pid || event.tid !== navStart.tid) continue;
    if (event.name !== 'ThreadControllerImpl::RunTask' && event.name !== 'RunTask') continue;
    totalUs += Math.max(0, Math.min(event.ts + event.dur, end) - Math.max(event.ts, navStart.ts));
  }
  return totalUs / 1000;
}

const link = await createShapedLink({ prefix, downMbit: 100, upMbit: 50, emulator: true });
try {
  const server = link.spawn(link.serverNs, process.execPath, ['bench/loader/server.mjs', '8816'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise((resolve, reject) => {
    const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (server.stdout) });
    lines.once('line', resolve);
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const origin = `http://${link.serverIp}:8816`;
  const browser = await chromium.launch({
    executablePath: link.chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--disable-dev-shm-usage',
      ...(chromiumArg ? [chromiumArg] : []),
    ],
  });
  await link.setRates(profile);
  await link.setConditions(symmetricConditions({ rttMs: profile.rttMs }));
  /** @type {Record<string, number[]>} */
  const executed = {};
  /** @type {Record<string, unknown>[]} */
  const samples = [];
  /** @type {Record<string, number[]>} with --trace: the renderer main thread's task time before the app's mark */
  const busy = {};
  for (let run = 0; run < runs; run++) {
    // Forwards in even runs, backwards in odd ones, as bench:loader: what a page leaves behind precedes each variant
    // as often as it follows it.
    for (const name of run % 2 === 0 ? chosen : chosen.toReversed()) {
      const context = await browser.newContext();
      const page = await context.newPage();
      const path = variantPaths[name];
      const withDeploy = (/** @type {number} */ deploy) =>
        `${path.replace(/\?.*/, '')}?${path.includes('?always') ? 'always&' : ''}deploy=${deploy}`;
      if (repeat || newDeploy) {
        // The earlier view of a new deploy is never forced: as in bench:loader, what the loader itself did before.
        // A loader page's earlier view is left once the loader remembered the link (as bench:loader waits, also
        // for repeat views); the decoder is started after it only before a new deploy.
        // A page without the loader's tag writes no cookie to wait for.
        const loaderPage = !name.startsWith('plain') && !name.endsWith('-notag');
        if (name === 'loader-unwarmed') {
          await page.goto(`${origin}/none`); // a 404 of the origin: only its localStorage is needed
          await page.evaluate(() => {
            localStorage.binastDecoder = new URL('/demo/loader/binast.js', location.href).href;
          });
        }
        for (let view = 0; view < (newDeploy ? 1 : earlierViews); view++)
          await earlierView(page, `${origin}${newDeploy ? withDeploy(1).replace('always&', '') : path}`, loaderPage);
        if (loaderPage && newDeploy) await startDecoder(page);
        if (name === 'loader-nocookies') await context.clearCookies();
        if (name === 'plain+cookies') await context.addCookies(withCookies(origin));
      }
      if (trace)
        await browser.startTracing(page, {
          categories: ['devtools.timeline', 'v8', 'disabled-by-default-devtools.timeline', 'blink.user_timing'],
        });
      await loadUntilExecuted(page, `${origin}${newDeploy ? withDeploy(2) : path}`);
      const metrics = await page.evaluate(() => {
        const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
        const round = (/** @type {number} */ ms) => Math.round(ms);
        return {
          executedMs: performance.getEntriesByName('app:executed')[0]?.startTime ?? Number.NaN,
          domContentLoadedMs: round(nav.domContentLoadedEventStart),
          htmlResponseEndMs: round(nav.responseEnd),
          timeOriginMs: performance.timeOrigin,
          resources: /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).map((e) => ({
            name: e.name.replace(/^https?:\/\/[^/]+/, ''),
            newConnection: e.connectEnd > e.connectStart,
            startMs: round(e.startTime),
            requestMs: round(e.requestStart),
            responseStartMs: round(e.responseStart),
            responseEndMs: round(e.responseEnd),
            priority: /** @type {any} */ (e).renderBlockingStatus,
            initiator: e.initiatorType,
          })),
          // The loader's own measures (record.ts `measure`): when each script's fetch, decode and run happened.
          measures: performance.getEntriesByType('measure').map((m) => ({
            name: m.name,
            startMs: round(m.startTime),
            endMs: round(m.startTime + m.duration),
          })),
        };
      });
      let scripts;
      /** @type {number | undefined} */
      let busyMs;
      if (trace) {
        const buffer = await browser.stopTracing();
        writeFileSync(`/tmp/${prefix}-trace-${name}-${run}.json`, buffer);
        const events = JSON.parse(buffer.toString()).traceEvents ?? [];
        const navStarts = events.filter((/** @type {any} */ e) => e.name === 'navigationStart');
        const navStart = navStarts.at(-1);
        scripts = navStart ? scriptEvents(buffer, navStart.ts) : undefined;
        busyMs = navStart ? mainThreadBusyMs(events, navStart, metrics.executedMs) : undefined;
      }
      await context.close();
      executed[name] = [...(executed[name] ?? []), metrics.executedMs];
      samples.push({ name, run, ...metrics, scripts, busyMs });
      if (busyMs !== undefined) busy[name] = [...(busy[name] ?? []), busyMs];
      const newConnections = metrics.resources.filter((r) => r.newConnection).length;
      process.stdout.write(
        `${name} run ${run + 1}: executed ${metrics.executedMs.toFixed(0)} ms${busyMs === undefined ? '' : ` (main thread busy ${busyMs.toFixed(1)} ms before it)`}, DCL ${metrics.domContentLoadedMs} ms, HTML end ${metrics.htmlResponseEndMs} ms, ${newConnections} new connections\n`,
      );
      for (const r of metrics.resources)
        process.stdout.write(
          `    ${r.name.padEnd(44)} start ${String(r.startMs).padStart(4)} req ${String(r.requestMs).padStart(4)} first ${String(r.responseStartMs).padStart(4)} end ${String(r.responseEndMs).padStart(4)}${r.newConnection ? ' NEW' : ''} ${r.initiator}\n`,
        );
      if (metrics.measures.length > 0)
        process.stdout.write(
          `    measures: ${metrics.measures.map((m) => `${m.name} ${m.startMs}-${m.endMs}`).join(', ')}\n`,
        );
      if (scripts)
        for (const [key, list] of Object.entries(scripts)) process.stdout.write(`    ${key}: ${list.join(', ')}\n`);
    }
  }
  await browser.close();
  process.stdout.write(`\nmedian executed ms (${runs} runs, ${JSON.stringify(profile)}):\n`);
  // Also per run: each variant against the plain page loaded right before or after it, which drift (other work on
  // the machine) moves together; the median of those ratios.
  // The interval: order statistics of the sorted ratios that hold the median with >= 95 % (binomial, distribution-free).
  const base = median(executed.plain ?? []);
  for (const name of chosen) {
    const ms = median(executed[name] ?? []);
    const ratios = (executed[name] ?? []).map((value, run) => value / (executed.plain?.[run] ?? Number.NaN));
    const paired = pairedSummary(ratios);
    process.stdout.write(
      `  ${name.padEnd(18)} ${ms.toFixed(0)} ms  ${(ms / base).toFixed(3)}x plain  (paired per run: ${paired.median.toFixed(3)}x, 95 % ${paired.low.toFixed(3)}-${paired.high.toFixed(3)}, ${paired.slower} of ${ratios.length} slower)${busy[name] ? `, main thread busy ${median(busy[name]).toFixed(1)} ms before the mark` : ''}\n`,
    );
  }
  writeFileSync(
    new URL(`../results/loader-probe-${arg('--profile', '10')}.json`, import.meta.url),
    `${JSON.stringify({ profile, runs, samples }, null, 2)}\n`,
  );
} finally {
  await link.destroy();
  cleanup();
}
