// Runs one speed-test engine in Chromium (inside the client namespace) against the Worker and normalizes its result.
// Both engines run in the same browser, one fresh context each, so neither inherits the other's connections.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import * as esbuild from 'esbuild';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { chromiumArgs } from '../lib/chromium.mjs';

/**
 * @typedef {object} EngineResult what every engine reports, in the units the tables use
 * @property {number} downloadBps
 * @property {number} uploadBps
 * @property {number} latencyMs idle latency
 * @property {number} jitterMs
 * @property {number} downLoadedLatencyMs
 * @property {number} upLoadedLatencyMs
 * @property {string} [detail] engine-specific notes for the log (our engine: why each direction stopped, streams)
 * @property {unknown} [raw] the engine's whole result (our engine: with every request and interval), for `--samples`
 */

/** @param {string} executablePath the shaped link's chromiumPath wrapper */
export function launchBrowser(executablePath) {
  return chromium.launch({ executablePath, args: chromiumArgs });
}

const baselineScript = readFileSync(join(repoRoot, 'node_modules', '@cloudflare', 'speedtest', 'dist', 'speedtest.js'));

/**
 * @typedef {object} Engine
 * @property {string} name
 * @property {(page: import('@playwright/test').Page, origin: string, timeoutMs: number) => Promise<EngineResult>} run
 */

/** @param {unknown} value */
const num = (value) => (typeof value === 'number' && Number.isFinite(value) ? value : Number.NaN);

/**
 * @cloudflare/speedtest 1.14.1, the real npm file, with its default measurement sequence minus the packet-loss step
 * (it needs a TURN server) and without result logging. The harness serves the script itself (a Playwright route
 * on the Worker's origin, page = /meta), so the reference is independent of our SPA; every measurement request goes over
 * the link to the Worker.
 * @type {Engine}
 */
export const cloudflareEngine = {
  name: '@cloudflare/speedtest',
  run: async (page, origin, timeoutMs) => {
    await page.route(`${origin}/__accuracy/speedtest.js`, (route) =>
      route.fulfill({ contentType: 'text/javascript', body: baselineScript }),
    );
    // A real document from the Worker (not a routed one): Chromium's Private Network Access checks treat a
    // Playwright-fulfilled document as public and would block its requests to the private 10.99.0.1.
    await page.goto(`${origin}/meta`);
    const summary = await page.evaluate(
      ({ origin, timeoutMs }) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs} ms`)), timeoutMs);
          import(`${origin}/__accuracy/speedtest.js`).then(({ default: SpeedTest }) => {
            const defaults = new SpeedTest({ autoStart: false }).config.measurements;
            const engine = new SpeedTest({
              autoStart: true,
              downloadApiUrl: `${origin}/__down`,
              uploadApiUrl: `${origin}/__up`,
              logMeasurementApiUrl: null,
              logAimApiUrl: null,
              measurements: defaults.filter((/** @type {{ type: string }} */ m) => m.type !== 'packetLoss'),
            });
            engine.onFinish = (/** @type {any} */ results) => {
              clearTimeout(timer);
              resolve(results.getSummary());
            };
            engine.onError = (/** @type {unknown} */ error) => {
              clearTimeout(timer);
              reject(new Error(String(error)));
            };
          }, reject);
        }),
      { origin, timeoutMs },
    );
    const s = /** @type {Record<string, unknown>} */ (summary);
    return {
      downloadBps: num(s.download),
      uploadBps: num(s.upload),
      latencyMs: num(s.latency),
      jitterMs: num(s.jitter),
      downLoadedLatencyMs: num(s.downLoadedLatency),
      upLoadedLatencyMs: num(s.upLoadedLatency),
    };
  },
};

/**
 * Our engine (packages/speedtest) through the SPA: `/?autostart=1` runs a test on open and publishes the final
 * result on `window.__speedkitResult` (or `window.__speedkitError`).
 * @type {Engine}
 */
export const speedkitEngine = {
  name: 'speedkit',
  run: async (page, origin, timeoutMs) => {
    await page.goto(`${origin}/?autostart=1`);
    // The SPA publishes either the result or `__speedkitError`; fail fast on the latter.
    const handle = await page.waitForFunction(
      () => {
        const w = /** @type {any} */ (window);
        if (w.__speedkitError) return { error: String(w.__speedkitError) };
        if (!w.__speedkitResult) return undefined;
        return { result: w.__speedkitResult };
      },
      null,
      { timeout: timeoutMs, polling: 250 },
    );
    const outcome = await handle.jsonValue();
    // waitForFunction resolves only on a truthy value, so `outcome` is one of the two objects above.
    if (!outcome) throw new Error('speedkit: the page published nothing');
    if (outcome.error) throw new Error(`speedkit failed: ${outcome.error}`);
    refuseFailedDirection(outcome.result);
    return { ...normalizeSpeedkit(outcome.result), raw: outcome.result };
  },
};

/**
 * Our engine without the SPA: packages/speedtest bundled by esbuild and run on a bare page, for checking the engine
 * alone (no UI work competing for the CPU) or before the SPA exists. `--engines speedkit-direct`.
 * @param {string} name
 * @param {() => string} entryPoint the engine's src/index.ts, resolved when the engine runs
 * @returns {Engine}
 */
function directEngine(name, entryPoint) {
  return {
    name,
    run: async (page, origin, timeoutMs) => {
      const bundle = await esbuild.build({
        entryPoints: [entryPoint()],
        bundle: true,
        format: 'esm',
        target: 'es2022',
        write: false,
      });
      await page.route(`${origin}/__accuracy/speedkit.js`, (route) =>
        route.fulfill({ contentType: 'text/javascript', body: Buffer.from(bundle.outputFiles[0].contents) }),
      );
      await page.goto(`${origin}/meta`);
      const result = await page.evaluate(
        async ({ origin, timeoutMs }) => {
          // Every upload's receipt (the server's read timeline) and resource timing, for `--samples`: the result holds
          // only each request's totals, and an upload figure above the link is decided by where its bytes were placed
          // (upload-diag.mjs replays the engine's placement from these). A clone read after the engine's own read costs
          // one JSON parse of a few kB per upload.
          /** @type {{ url: string, startedMs: number, receipt: unknown }[]} */
          const uploads = [];
          const plainFetch = window.fetch.bind(window);
          window.fetch = async (input, init) => {
            const startedMs = performance.now();
            const response = await plainFetch(input, init);
            const url = String(input instanceof Request ? input.url : input);
            if (url.includes('/__up')) {
              response
                .clone()
                .json()
                .then((receipt) => uploads.push({ url, startedMs, receipt }))
                .catch(() => {});
            }
            return response;
          };
          const { SpeedTest } = await import(`${origin}/__accuracy/speedkit.js`);
          const engine = new SpeedTest({ serverUrl: origin });
          const timer = setTimeout(() => engine.abort(), timeoutMs);
          const testOriginMs = performance.now();
          const result = await engine.start();
          clearTimeout(timer);
          const entries = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource'));
          const timings = entries
            .filter((timing) => timing.name.includes('/__up'))
            .map((timing) => ({
              url: timing.name,
              requestStart: timing.requestStart,
              responseStart: timing.responseStart,
              responseEnd: timing.responseEnd,
              nextHopProtocol: timing.nextHopProtocol,
            }));
          // The protocol each measurement request went over (`--front h2` must read h2 here, h1 "http/1.1"): counted
          // over the entries the browser kept (its default buffer holds the first 250).
          /** @type {Record<string, number>} */
          const protocols = {};
          for (const timing of entries) {
            if (!/\/__(down|up)/.test(timing.name)) continue;
            const protocol = timing.nextHopProtocol || 'unknown';
            protocols[protocol] = (protocols[protocol] ?? 0) + 1;
          }
          return { ...result, diagnostics: { testOriginMs, uploads, timings, protocols } };
        },
        { origin, timeoutMs },
      );
      refuseFailedDirection(result);
      const normalized = normalizeSpeedkit(result);
      const protocols = Object.entries(result.diagnostics.protocols)
        .map(([protocol, count]) => `${protocol} ×${count}`)
        .join(' ');
      // WebSockets (socket uploads) have no Resource Timing entry: their transport is said beside the protocols.
      const sockets =
        result.upload?.transport && result.upload.transport !== 'http' ? `, up ${result.upload.transport}` : '';
      return { ...normalized, detail: `${normalized.detail}, ${protocols || 'no protocol'}${sockets}`, raw: result };
    },
  };
}

/** @type {Engine} */
export const speedkitDirectEngine = directEngine('speedkit-direct', () =>
  join(repoRoot, 'packages', 'speedtest', 'src', 'index.ts'),
);

/**
 * The same, bundled from another copy of the engine (`SPEEDKIT_BASE_SRC`: its src/index.ts, e.g. main's
 * packages/speedtest exported with `git archive`): `--engines speedkit-direct,speedkit-direct-base` alternates an
 * engine change with its baseline in the same minutes, against the same truth.
 * @type {Engine}
 */
export const speedkitDirectBaseEngine = directEngine('speedkit-direct-base', () => {
  const entry = process.env.SPEEDKIT_BASE_SRC;
  if (!entry) throw new Error("speedkit-direct-base needs SPEEDKIT_BASE_SRC (the baseline engine's src/index.ts)");
  return entry;
});

/**
 * A direction that got nothing through no longer fails our engine's run (the other one still stands, with
 * `directionFailures` saying why); the bench measures both directions, so such a run fails here instead of reading
 * "n/a".
 * @param {any} result
 */
function refuseFailedDirection(result) {
  const failed = Object.values(result?.directionFailures ?? {}).filter(Boolean);
  if (failed.length > 0) throw new Error(`speedkit failed: ${failed.map((f) => f.message).join('; ')}`);
}

/**
 * Maps our engine's SpeedTestResult (packages/speedtest/src/types.ts) onto EngineResult. A field the engine did not
 * report becomes NaN (shown as "n/a") rather than crashing the whole bench.
 * @param {any} result
 * @returns {EngineResult}
 */
export function normalizeSpeedkit(result) {
  return {
    downloadBps: num(result?.download?.bitsPerSecond?.value),
    uploadBps: num(result?.upload?.bitsPerSecond?.value),
    latencyMs: num(result?.latency?.idleMs?.value),
    jitterMs: num(result?.latency?.jitterMs),
    downLoadedLatencyMs: num(result?.latency?.downloadLoadedMs?.value),
    upLoadedLatencyMs: num(result?.latency?.uploadLoadedMs?.value),
    detail: ['download', 'upload']
      .map(
        (d) =>
          `${d.slice(0, 2)} ${result?.[d]?.stopReason ?? '?'}/${result?.[d]?.streams ?? '?'}` +
          // The server's read times were taken for a proxy's buffered copies (packages/speedtest README).
          (result?.[d]?.bufferedByProxy ? ' buffered' : ''),
      )
      .join(', '),
  };
}

/** Engines of a default run; the others are selectable with --engines. */
export const engines = [speedkitEngine, cloudflareEngine];
export const allEngines = [speedkitEngine, cloudflareEngine, speedkitDirectEngine, speedkitDirectBaseEngine];
