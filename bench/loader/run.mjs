// `npm run bench:loader`: time from navigation to "library executed" (the demo app's `app:executed` mark, set after
// React, ReactDOM, d3, lodash and the app ran and rendered) for plain scripts vs the BinaryAST loader, on a shaped
// link (tbf in network namespaces, the round trip added to every packet by tools/link-emulator so TCP sees it), with
// bytes on the wire and decode time. Needs root and a build.
// Options: --runs N (default 3 per variant and profile), --profile S (only the profiles whose name contains S),
// --prefix P (network namespace prefix, default skloader: two sessions running the bench side by side need their own),
// --variants S (only the variants whose name contains S), --settle MS (wait after the earlier views).
// Variants run interleaved, forwards in even runs and backwards in odd ones.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { canCreateNamespaces, createShapedLink } from '../lib/shaped-link.mjs';
import { summarise, toCsv, toTable } from './report.mjs';
import { earlierView, loadUntilExecuted, startDecoder } from './views.mjs';

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const prefixArg = process.argv.indexOf('--prefix');
const prefix = prefixArg > 0 ? String(process.argv[prefixArg + 1]) : 'skloader';
const profileArg = process.argv.indexOf('--profile');
/** Only the profiles whose name contains this (e.g. `--profile 100` for 100 Mbit/s), to look at one closely. */
const profileFilter = profileArg > 0 ? String(process.argv[profileArg + 1]) : '';
/** Lighthouse's "slow 4G" mobile profile first (1.6 Mbit/s, 150 ms), then a decent and a fast line. */
const profiles = [
  { name: '1.6 Mbit/s, 150 ms', downMbit: 1.6, upMbit: 0.75, rttMs: 150 },
  { name: '10 Mbit/s, 40 ms', downMbit: 10, upMbit: 5, rttMs: 40 },
  { name: '100 Mbit/s, 10 ms', downMbit: 100, upMbit: 50, rttMs: 10 },
];
const chosenProfiles = profiles.filter((profile) => profile.name.includes(profileFilter));
/**
 * plain: the libraries as <script src>, first visit. loader, cold: the same page through the loader, first visit.
 * New deploy: an earlier view of the site's previous deploy (`?deploy=1`: same bytes, other script URLs) on the same
 * link, then the page of the next deploy (`?deploy=2`), whose scripts are not in the HTTP cache: for the plain page
 * the fair baseline (warm connections, nothing reusable), for the loader what a returning visitor gets — the earlier
 * view measured the link (src/remember.ts: the cookie the Worker's preload rule and the loader read) and, where
 * BinaryAST would win on it, fetched the decoder; "decoder cached" also starts the decoder after the earlier view
 * where the loader would not have (fast links), so that row always has it. Repeat view: the same page a second time,
 * everything in the HTTP cache. "BinaryAST forced" skips the cost model (`data-always`) to show what it avoids.
 * @type {{ name: string, path: string, earlier?: string, prewarmDecoder?: boolean, repeat?: boolean,
 *   earlierViews?: number }[]}
 */
const allVariants = [
  { name: 'plain <script>', path: '/demo/loader-libs-plain' },
  { name: 'loader, cold', path: '/demo/loader-libs' },
  { name: 'plain, new deploy', path: '/demo/loader-libs-plain?deploy=2', earlier: '/demo/loader-libs-plain?deploy=1' },
  {
    name: 'loader, new deploy, decoder cached',
    path: '/demo/loader-libs?deploy=2',
    earlier: '/demo/loader-libs?deploy=1',
    prewarmDecoder: true,
  },
  { name: 'plain, repeat view', path: '/demo/loader-libs-plain', repeat: true },
  { name: 'loader, repeat view', path: '/demo/loader-libs', repeat: true },
  // The same page a third time (two earlier views): V8 now takes each script from its code cache, which the second
  // view produced (Chromium caches a script's compiled code on its second run, and uses it from the third).
  { name: 'plain, third view', path: '/demo/loader-libs-plain', repeat: true, earlierViews: 2 },
  { name: 'loader, third view', path: '/demo/loader-libs', repeat: true, earlierViews: 2 },
  {
    name: 'BinaryAST forced, new deploy, decoder cached',
    path: '/demo/loader-libs?always&deploy=2',
    earlier: '/demo/loader-libs?deploy=1',
    prewarmDecoder: true,
  },
];
const variantArg = process.argv.indexOf('--variants');
/**
 * Only the variants whose name contains this (e.g. `--variants repeat`), to look at one kind without the others
 * loaded in the same browser between its samples; each kind's plain variant comes first, as the ratios need.
 */
const variants = allVariants.filter((variant) =>
  variant.name.includes(variantArg > 0 ? String(process.argv[variantArg + 1]) : ''),
);
const settleArg = process.argv.indexOf('--settle');
/**
 * ms to wait after the earlier views before the measured one (default 0: the next view at once, as a click would
 * start it), to tell a cost of the page from work the earlier view leaves running in the browser.
 */
const settleMs = settleArg > 0 ? Number(process.argv[settleArg + 1]) : 0;
const serverPort = 8816;

const capable = await canCreateNamespaces();
if (!capable.ok) {
  process.stderr.write(`bench:loader needs network namespaces: ${capable.reason}\n`);
  process.exit(1);
}

const link = await createShapedLink({ prefix, downMbit: 100, upMbit: 50, emulator: true });
try {
  const server = link.spawn(link.serverNs, process.execPath, ['bench/loader/server.mjs', String(serverPort)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const ready = await new Promise((resolve, reject) => {
    const lines = createInterface({ input: /** @type {import('node:stream').Readable} */ (server.stdout) });
    lines.once('line', (line) => resolve(JSON.parse(line)));
    server.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  const origin = `http://${link.serverIp}:${serverPort}`;
  const browser = await chromium.launch({
    executablePath: link.chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-dev-shm-usage'],
  });
  /** @type {Record<string, unknown>[]} */
  const samples = [];
  for (const profile of chosenProfiles) {
    await link.setRates(profile);
    await link.setConditions(symmetricConditions({ rttMs: profile.rttMs }));
    // Interleaved so drift (other work on the machine) spreads over all variants, and in the opposite order every
    // other run: what a variant's page leaves behind (a closing context, the browser's cache writes) then precedes
    // each variant as often as it follows it. (Added when the forced BinaryAST page, always last, read 21–35 ms
    // faster than the loader's identical choice; alternating kept the gap, which was the loader's cache check.)
    for (let run = 0; run < runs; run++) {
      for (const variant of run % 2 === 0 ? variants : variants.toReversed()) {
        const context = await browser.newContext();
        const page = await context.newPage();
        // An earlier view (the previous deploy) or the first of two views: loaded completely, then left once the
        // loader has remembered the link (its cookie) and any decoder download it started has ended.
        const earlier = variant.earlier ?? (variant.repeat ? variant.path : undefined);
        if (earlier)
          for (let view = 0; view < (variant.earlierViews ?? 1); view++)
            await earlierView(page, `${origin}${earlier}`, !earlier.includes('plain'));
        if (variant.prewarmDecoder) await startDecoder(page);
        if (earlier && settleMs > 0) await page.waitForTimeout(settleMs);
        await loadUntilExecuted(page, `${origin}${variant.path}`);
        const metrics = await page.evaluate(() => {
          const resources = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
          const sum = (/** @type {(entry: PerformanceResourceTiming) => boolean} */ pick) =>
            resources.filter(pick).reduce((total, entry) => total + entry.transferSize, 0);
          const isScript = (/** @type {PerformanceResourceTiming} */ e) =>
            /\/(lib\/[\w-]+|loader-app)\.js(\?v=\d+)?([?&]__binast)?$/.test(e.name);
          const isDecoder = (/** @type {PerformanceResourceTiming} */ e) =>
            /\/binast(_bg\.wasm|\.js|-worker\.js|-wasm\.js)$/.test(e.name);
          /**
           * @typedef {{ outcome?: string, reason?: string, decodeMs?: number, downMbit?: number, rttMs?: number,
           *   decoderCached?: boolean }} LoaderRecord
           */
          const loader = /** @type {{ binast?: { records: LoaderRecord[] } }} */ (window).binast;
          const records = loader?.records ?? [];
          return {
            executedMs: performance.getEntriesByName('app:executed')[0]?.startTime ?? Number.NaN,
            scriptWireBytes: sum(isScript),
            decoderWireBytes: sum(isDecoder),
            decodeMs: records.reduce((total, record) => total + (record.decodeMs ?? 0), 0),
            decoderDownloadMs: (() => {
              const decoder = resources.filter(isDecoder);
              if (decoder.length === 0) return 0;
              return Math.max(...decoder.map((e) => e.responseEnd)) - Math.min(...decoder.map((e) => e.startTime));
            })(),
            outcomes: records.map((r) => (r.reason ? `${r.outcome}(${r.reason})` : r.outcome)).join(' '),
            // What the cost model saw for the first script: the connection estimate and the decoder's cache state.
            modelInput: records[0]
              ? `${records[0].downMbit ?? '?'} Mbit/s, ${Math.round(records[0].rttMs ?? Number.NaN)} ms, decoder ${records[0].decoderCached ? 'cached' : 'not cached'}`
              : '',
          };
        });
        await context.close();
        samples.push({ profile: profile.name, variant: variant.name, run, ...metrics });
        // What the loader did with each script (outcome and the cost model's reason), so every sample explains itself.
        const note = variant.path.includes('-plain') ? '' : ` (${metrics.outcomes})`;
        process.stdout.write(
          `  ${profile.name} | ${variant.name} | run ${run + 1}: ${metrics.executedMs.toFixed(0)} ms${note}\n`,
        );
      }
    }
  }
  await browser.close();
  const rows = summarise(samples, chosenProfiles, variants);
  process.stdout.write(
    `\n${toTable(rows)}\n\nPer-script sizes in bytes (the link carries gzip -9: Chromium offers brotli only over HTTPS):\n`,
  );
  for (const [path, size] of Object.entries(/** @type {{ sizes: Record<string, object> }} */ (ready).sizes)) {
    process.stdout.write(`  ${path}: ${JSON.stringify(size)}\n`);
  }
  const outDir = join(import.meta.dirname, '../results');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'loader.csv'), toCsv(rows));
  writeFileSync(
    join(outDir, 'loader.json'),
    `${JSON.stringify({ runs, profiles: chosenProfiles, rows, samples, sizes: /** @type {any} */ (ready).sizes }, null, 2)}\n`,
  );
  process.stdout.write(`\nwrote bench/results/loader.csv and loader.json\n`);
} finally {
  await link.destroy();
}
