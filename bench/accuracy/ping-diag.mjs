// `node bench/accuracy/ping-diag.mjs [--prefix h22ac] [--rounds 4] [--profile "100/20 20ms"]`: where our engine's idle
// latency differs from @cloudflare/speedtest's. On one shaped link, in rounds (fresh browser context each), it times
// zero-byte pings in several ways and prints every ping and each variant's median beside paced curl truth:
// - `engine`: our engine (packages/speedtest, bundled) from its start until its latency phase ends;
// - `cloudflare`: @cloudflare/speedtest's first three default steps (latency, a 100 kB download, 20 pings);
// - plain fetch loops from a page on the Worker's origin, as either engine issues its pings: `no-store` + unique URL
//   (ours), default cache mode + one URL (theirs), right after the page loaded or after an idle wait.
// Ad hoc (not part of `npm test`); needs root like the bench. Results: bench/results/accuracy/ping-diag-<time>.json.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { createShapedLink } from '../lib/shaped-link.mjs';
import { launchBrowser } from './engines.mjs';
import { profiles, smokeProfile } from './profiles.mjs';
import { resultsDir } from './results.mjs';
import { median } from './stats.mjs';
import { curlRtts } from './truth.mjs';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'h22ac' },
    rounds: { type: 'string', default: '4' },
    profile: { type: 'string', default: smokeProfile.id },
    variants: { type: 'string' },
  },
});
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const profile = [smokeProfile, ...profiles].find((p) => p.id === args.profile);
if (!profile) throw new Error(`no profile ${args.profile}`);

const bundle = await esbuild.build({
  entryPoints: [join(repoRoot, 'packages', 'speedtest', 'src', 'index.ts')],
  bundle: true,
  format: 'esm',
  target: 'es2022',
  write: false,
});
const engineScript = Buffer.from(bundle.outputFiles[0].contents);
const cloudflareScript = readFileSync(
  join(repoRoot, 'node_modules', '@cloudflare', 'speedtest', 'dist', 'speedtest.js'),
);

/** @typedef {{ ping: number, at: number, newConnection?: boolean }} Ping */
/** @type {Record<string, (page: import('@playwright/test').Page, origin: string) => Promise<Ping[]>>} */
const variants = {
  engine: (page, origin) =>
    page.evaluate(async (origin) => {
      const { SpeedTest } = await import(`${origin}/__accuracy/speedkit.js`);
      const engine = new SpeedTest({ serverUrl: origin, packetLoss: false });
      /** @type {{ ping: number, at: number }[]} */
      const pings = [];
      const connections = observeConnections();
      engine.on('sample', (/** @type {any} */ s) => {
        if (s.kind === 'latency' && s.load === 'idle') pings.push({ ping: s.pingMs, at: s.startMs });
      });
      engine.on('phase', (/** @type {any} */ p) => {
        if (p.phase === 'latency') engine.abort();
      });
      await engine.start().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, 200)); // observer callbacks come late
      // The engine's idle pings are the last `pings.length` zero-byte entries (two warm-ups before them).
      const flags = connections().slice(-pings.length);
      return pings.map((p, i) => ({ ...p, newConnection: flags[i] }));

      function observeConnections() {
        /** @type {boolean[]} */
        const seen = [];
        new PerformanceObserver((list) => {
          for (const e of /** @type {PerformanceResourceTiming[]} */ (list.getEntries()))
            if (e.name.includes('bytes=0')) seen.push(e.connectEnd > e.connectStart);
        }).observe({ type: 'resource' });
        return () => seen;
      }
    }, origin),
  cloudflare: (page, origin) => cloudflare(page, origin, false),
  'cloudflare-full': (page, origin) => cloudflare(page, origin, true),
  'loop-ours': (page, origin) => fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 0 }),
  'loop-theirs': (page, origin) => fetchLoop(page, origin, { noStore: false, unique: false, waitMs: 0 }),
  'loop-ours-idle1s': (page, origin) => fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 1000 }),
  'loop-ours-idle3s': (page, origin) => fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 3000 }),
  'loop-ours-after-dl': (page, origin) =>
    fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 0, downloadBytes: 10_000_000 }),
  'loop-ours-after-cut': (page, origin) =>
    fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 0, cutDownloadMs: 1000 }),
  'loop-ours-after-ul': (page, origin) =>
    fetchLoop(page, origin, { noStore: true, unique: true, waitMs: 0, uploadBytes: 5_000_000 }),
};

/**
 * @cloudflare/speedtest's idle pings: its first three default steps, or (`full`) its whole default sequence minus the
 * packet-loss step, whose later idle pings come two after each transfer step.
 * @param {import('@playwright/test').Page} page @param {string} origin @param {boolean} full
 * @returns {Promise<Ping[]>}
 */
function cloudflare(page, origin, full) {
  return page.evaluate(
    ({ origin, full }) =>
      new Promise((resolve, reject) => {
        import(`${origin}/__accuracy/speedtest.js`).then(({ default: SpeedTest }) => {
          const defaults = new SpeedTest({ autoStart: false }).config.measurements;
          const t0 = performance.now();
          /** @type {boolean[]} */
          const flags = [];
          // The library clears the resource-timing buffer between its steps; an observer sees every entry.
          new PerformanceObserver((list) => {
            for (const e of /** @type {PerformanceResourceTiming[]} */ (list.getEntries()))
              if (e.name.includes('bytes=0')) flags.push(e.connectEnd > e.connectStart);
          }).observe({ type: 'resource' });
          const engine = new SpeedTest({
            autoStart: true,
            downloadApiUrl: `${origin}/__down`,
            uploadApiUrl: `${origin}/__up`,
            logMeasurementApiUrl: null,
            logAimApiUrl: null,
            measurements: full
              ? defaults.filter((/** @type {any} */ m) => m.type !== 'packetLoss')
              : defaults.slice(0, 3),
          });
          engine.onFinish = (/** @type {any} */ results) => {
            const points = results.getUnloadedLatencyPoints();
            setTimeout(
              () =>
                resolve(
                  points.map((/** @type {number} */ ping, /** @type {number} */ i) => ({
                    ping,
                    at: performance.now() - t0,
                    newConnection: flags[i],
                  })),
                ),
              200,
            );
          };
          engine.onError = (/** @type {unknown} */ error) => reject(new Error(String(error)));
        }, reject);
      }),
    { origin, full },
  );
}

/**
 * 2 warm-up + 20 sequential zero-byte pings from the page, timed like both engines (responseStart − requestStart).
 * @param {import('@playwright/test').Page} page @param {string} origin
 * @param {{ noStore: boolean, unique: boolean, waitMs: number, downloadBytes?: number, uploadBytes?: number, cutDownloadMs?: number }} how
 */
function fetchLoop(page, origin, how) {
  return page.evaluate(
    async ({ origin, how }) => {
      await new Promise((resolve) => setTimeout(resolve, how.waitMs));
      // A transfer first (as @cloudflare/speedtest pings between its steps): the path right after it was busy.
      if (how.downloadBytes) await (await fetch(`${origin}/__down?bytes=${how.downloadBytes}`)).arrayBuffer();
      if (how.cutDownloadMs) {
        // A download cut by the page (as our engine ends its download phase), then one round trip's wait.
        const controller = new AbortController();
        setTimeout(() => controller.abort(), how.cutDownloadMs);
        await fetch(`${origin}/__down?bytes=1000000000`, { signal: controller.signal })
          .then((r) => r.arrayBuffer())
          .catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      if (how.uploadBytes) {
        const body = new Blob([new Uint8Array(how.uploadBytes)]);
        await (await fetch(`${origin}/__up?bytes=${how.uploadBytes}`, { method: 'POST', body })).arrayBuffer();
      }
      const t0 = performance.now();
      const out = [];
      for (let i = 0; i < 22; i++) {
        const url = `${origin}/__down?bytes=0&during=idle${how.unique ? `&r=${i}-${Math.random()}` : ''}`;
        const response = await fetch(url, how.noStore ? { cache: 'no-store' } : {});
        await response.arrayBuffer();
        const entry = /** @type {PerformanceResourceTiming} */ (performance.getEntriesByName(url).at(-1));
        const newConnection = entry.connectEnd > entry.connectStart;
        if (i >= 2)
          out.push({ ping: entry.responseStart - entry.requestStart, at: entry.startTime - t0, newConnection });
      }
      return out;
    },
    { origin, how },
  );
}

const chosen = args.variants ? args.variants.split(',') : Object.keys(variants);
const link = await createShapedLink({
  prefix: args.prefix,
  downMbit: profile.downMbit,
  upMbit: profile.upMbit,
  emulator: true,
});
/** @type {{ round: number, variant: string, pings: Ping[], load: number[] }[]} */
const runs = [];
/** @type {number[]} */
const truth = [];
const loadBefore = loadavg();
try {
  const { startServer } = await import('./server.mjs');
  const server = await startServer(link);
  const browser = await launchBrowser(link.chromiumPath);
  try {
    await server.setDelay(profile);
    await curlRtts(link, server.origin, 10);
    truth.push(...(await curlRtts(link, server.origin, 20)));
    for (let round = 1; round <= Number(args.rounds); round++) {
      // Rotate the order so no variant always follows the same one.
      const order = chosen.map((_, i) => chosen[(i + round - 1) % chosen.length]);
      for (const variant of order) {
        const context = await browser.newContext();
        const page = await context.newPage();
        await page.route(`${server.origin}/__accuracy/speedkit.js`, (route) =>
          route.fulfill({ contentType: 'text/javascript', body: engineScript }),
        );
        await page.route(`${server.origin}/__accuracy/speedtest.js`, (route) =>
          route.fulfill({ contentType: 'text/javascript', body: cloudflareScript }),
        );
        await page.goto(`${server.origin}/meta`);
        try {
          const pings = await variants[variant](page, server.origin);
          runs.push({ round, variant, pings, load: loadavg() });
          log(
            `round ${round} ${variant.padEnd(17)} median ${median(pings.map((p) => p.ping)).toFixed(2)} ms, n ${pings.length}: ` +
              pings.map((p) => `${p.ping.toFixed(1)}${p.newConnection ? '*' : ''}`).join(' '),
          );
        } catch (error) {
          log(`round ${round} ${variant}: FAILED ${error instanceof Error ? error.message.split('\n')[0] : error}`);
        } finally {
          await context.close();
        }
      }
      const more = await curlRtts(link, server.origin, 20);
      truth.push(...more);
      log(
        `round ${round} curl truth median ${median(more).toFixed(2)} ms; load ${loadavg()
          .map((v) => v.toFixed(2))
          .join(' ')}`,
      );
    }
  } finally {
    await browser.close().catch(() => {});
    await server.stop();
  }
} finally {
  await link.destroy();
}

log(`\n${profile.id}: curl truth median ${median(truth).toFixed(2)} ms over ${truth.length} probes`);
for (const variant of chosen) {
  const mine = runs.filter((r) => r.variant === variant);
  const medians = mine.map((r) => median(r.pings.map((p) => p.ping)));
  const bias = medians.map((m) => (m - median(truth)).toFixed(2));
  log(`${variant.padEnd(17)} medians ${medians.map((m) => m.toFixed(2)).join(' ')}; minus truth ${bias.join(' ')}`);
  if (variant === 'cloudflare-full') {
    const early = mine.map((r) => median(r.pings.slice(0, 22).map((p) => p.ping)).toFixed(2));
    const late = mine.map((r) => median(r.pings.slice(22).map((p) => p.ping)).toFixed(2));
    log(`${''.padEnd(17)} first 22 pings ${early.join(' ')}; the later ones (after transfer steps) ${late.join(' ')}`);
  }
}
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `ping-diag-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
writeFileSync(file, `${JSON.stringify({ profile, loadBefore, loadAfter: loadavg(), truth, runs }, null, 1)}\n`);
log(`wrote ${file}`);
