// Orchestrates one Speed Page measurement: checks, the shaped link, origin bridge, Workers and fronts, then every
// profile's interleaved runs, and hands the runs to results.mjs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { canCreateNamespaces, createShapedLink } from '../lib/shaped-link.mjs';
import { entrancesOf, pageUrlOf, ports, variantBrowserArgs } from './addressing.mjs';
import { filmstrip, speedlineSpeedIndex, visualMetrics } from './frames.mjs';
import { loadPage } from './measure.mjs';
import { startOriginBridge } from './origin-bridge.mjs';
import { startOutsideProxy } from './outside-proxy.mjs';
import { profiles } from './profiles.mjs';
import { addRtt, linkOptions } from './rtt.mjs';
import { labCert, startFronts, startOutsideRelay, startWorkers } from './servers.mjs';
import { selectVariants } from './variants.mjs';

const loaderDir = resolve(fileURLToPath(new URL('../../packages/binast-loader/dist', import.meta.url)));
/** How long one load may take unless `--timeout` says otherwise. */
const defaultPageTimeoutMs = 60_000;

/**
 * A failed load's message, with what to do when the page was only slow: a heavy page on the mobile profile's link
 * (10 MB at 1.6 Mbit/s is over 50 s) ran into the limit on every run.
 * @param {string} message @param {number} timeoutMs
 */
function withTimeoutHint(message, timeoutMs) {
  return message.startsWith("the page's load event did not fire within")
    ? `${message} (a page this heavy on this link needs more: --timeout ${Math.min(600, (timeoutMs / 1000) * 3)})`
    : message;
}

/**
 * Fails early, with what to do, when the page cannot be measured: not root, unreachable, or an error status.
 * @param {URL} url
 */
export async function preflight(url) {
  const possible = await canCreateNamespaces(linkOptions);
  if (!possible.ok) {
    throw new Error(
      `the Speed Page shapes a real link between network namespaces and needs root for that: ${possible.reason}. ` +
        'Run it as root (e.g. `sudo npm run speed-page -- <url>`).',
    );
  }
  let response;
  try {
    response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
  } catch (error) {
    // undici wraps the socket's error (ECONNREFUSED, ENOTFOUND) in "fetch failed": name the socket's.
    const cause = /** @type {any} */ (error).cause;
    const reason = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? /** @type {Error} */ (error).message;
    throw new Error(`cannot reach ${url.href} (${reason}): is the site running and the address right?`);
  }
  await response.body?.cancel();
  if (response.status >= 300 && response.status < 400) {
    throw new Error(
      `${url.href} redirects (HTTP ${response.status}) to ${response.headers.get('location')}: pass the final address`,
    );
  }
  if (response.status >= 400) {
    throw new Error(
      `the origin answered HTTP ${response.status} for ${url.href}: fix the site or pass a page that loads`,
    );
  }
  const type = response.headers.get('content-type') ?? '';
  if (!/^\s*(text\/html|application\/xhtml\+xml)\b/i.test(type)) {
    throw new Error(`${url.href} is not an HTML page (Content-Type: ${type || 'none'}): pass the address of a page`);
  }
}

/**
 * @typedef {import('./variants.mjs').Variant} Variant
 * @typedef {(variant: Variant) => string} UrlOf
 */

/**
 * Every profile's runs: the link, the Workers and fronts, a browser per variant, then per profile the warm-up (first profile
 * only) and the interleaved runs. `thirdParties` (default true): other hosts are reached through the outside proxy;
 * false leaves them unreachable, as before 2026-11-28.
 * @param {{ url: URL, runs: number, timeoutMs?: number, profiles: string[], features: string[], prefix: string,
 *   thirdParties?: boolean, say: (s: string) => void }} options
 */
export async function runLab({
  url,
  runs,
  timeoutMs = defaultPageTimeoutMs,
  profiles: profileNames,
  features,
  prefix,
  thirdParties = true,
  say,
}) {
  const variants = selectVariants(features);
  const work = mkdtempSync(join(tmpdir(), `${prefix}-`));
  // Ctrl-C ends the process from the shaped link's signal handler (process.exit), past the `finally` below: the
  // work folder (certificates, the Workers' state) goes on exit too.
  const removeWork = () => rmSync(work, { recursive: true, force: true });
  process.on('exit', removeWork);
  const socketPath = join(work, 'origin.sock');
  const bridge = await startOriginBridge({ target: new URL(url.origin), socketPath, loaderDir });
  const outsideSocket = join(work, 'outside.sock');
  const outside = thirdParties ? await startOutsideProxy({ socketPath: outsideSocket }) : null;
  const first = profiles[profileNames[0]];
  const link = await createShapedLink({ prefix, downMbit: first.downMbit, upMbit: first.upMbit, ...linkOptions });
  const entrances = entrancesOf(variants);
  /** @type {any[]} */
  const allRuns = [];
  /** @type {Record<string, Record<string, any>>} */
  const filmstrips = {};
  let rttMechanism = '';
  try {
    const cert = labCert(work);
    const entryPort = await startWorkers(link, work, socketPath, variants, cert, say);
    if (outside) await startOutsideRelay(link, outsideSocket);
    const rtt = addRtt(link);
    rttMechanism = rtt.mechanism;
    const outsideProxy = outside ? ports.outsideProxy : undefined;
    const { browserOf, closeAll } = await launchBrowsers(link, url, variants, entrances, outsideProxy);
    /** @type {UrlOf} */
    const urlOf = (variant) =>
      pageUrlOf(
        url,
        variant,
        link.serverIp,
        /** @type {import('./addressing.mjs').Entrance} */ (entrances.get(variant.id)),
      );
    try {
      for (const profileName of profileNames) {
        const profile = profiles[profileName];
        await link.setRates(profile);
        await rtt.setRttMs(profile.rttMs);
        const fronts = await startFronts(link, entryPort, entrances, cert, profile.downMbit);
        try {
          say(`${profile.label}`);
          if (profileName === profileNames[0])
            await warmUp(browserOf, variants, urlOf, profile, say, { timeoutMs, site: url });
          const framesOf = new Map();
          for (let run = 0; run < runs; run++) {
            // Interleaved, and the order rotated every run so no variant always goes first after a pause.
            const order = variants.map((_, i) => variants[(i + run) % variants.length]);
            for (const variant of order) {
              const base = { profile: profileName, variant: variant.id, run: run + 1 };
              const labels = { run: `[${profileName}] run ${run + 1}/${runs}`, variant: variant.label };
              const measured = await measureRun(browserOf(variant), urlOf(variant), profile, base, labels, say, {
                timeoutMs,
                site: url,
              });
              allRuns.push(measured.record);
              if (measured.frames) framesOf.set(`${variant.id}#${run + 1}`, measured.frames);
            }
          }
          filmstrips[profileName] = await filmstripsFor(allRuns, framesOf, profileName, variants, profile.thumbWidthPx);
        } finally {
          fronts.stop();
        }
      }
    } finally {
      await closeAll();
    }
  } finally {
    await link.destroy();
    bridge.close();
    outside?.close();
    removeWork();
    process.off('exit', removeWork);
  }
  return { runs: allRuns, filmstrips, variants, rttMechanism };
}

/**
 * One Chromium per variant, each resolving the site's own host to that variant's entrances (addressing.mjs).
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link @param {URL} site @param {Variant[]} variants
 * @param {Map<string, import('./addressing.mjs').Entrance>} entrances @param {number | undefined} outsideProxy its port
 */
async function launchBrowsers(link, site, variants, entrances, outsideProxy) {
  /** @type {Map<string, import('@playwright/test').Browser>} */
  const browsers = new Map();
  try {
    for (const variant of variants) {
      const entrance = /** @type {import('./addressing.mjs').Entrance} */ (entrances.get(variant.id));
      const args = variantBrowserArgs(site, link.serverIp, entrance, { outsideProxy });
      browsers.set(variant.id, await chromium.launch({ executablePath: link.chromiumPath, args }));
    }
  } catch (error) {
    await Promise.all([...browsers.values()].map((browser) => browser.close()));
    throw error;
  }
  return {
    browserOf: (/** @type {Variant} */ variant) =>
      /** @type {import('@playwright/test').Browser} */ (browsers.get(variant.id)),
    closeAll: () => Promise.all([...browsers.values()].map((browser) => browser.close())),
  };
}

/**
 * Warm-up, not measured: the Workers encode AVIF/WebP and BinaryAST in the background on first sight and serve the
 * stored variants afterwards, which is what visitors of a deployed site get. Two rounds over every variant through
 * the Workers, with a pause after the first for the background work to finish.
 * @param {(variant: Variant) => import('@playwright/test').Browser} browserOf @param {Variant[]} variants
 * @param {UrlOf} urlOf @param {import('./measure.mjs').BrowserProfile} profile @param {(s: string) => void} say
 * @param {{ timeoutMs: number, site: URL }} options `site`: the address the user gave, which messages name
 */
async function warmUp(browserOf, variants, urlOf, profile, say, { timeoutMs, site }) {
  for (let round = 0; round < 2; round++) {
    for (const variant of variants.filter((v) => v.hops.length > 0)) {
      const startMs = performance.now();
      await loadPage(browserOf(variant), urlOf(variant), profile, { timeoutMs, site }).catch((error) => {
        const message = withTimeoutHint(/** @type {Error} */ (error).message, timeoutMs);
        throw new Error(`warm-up load of ${variant.label} failed: ${message}`);
      });
      say(`  warm-up ${round + 1}/2 ${variant.label} (${((performance.now() - startMs) / 1000).toFixed(1)} s)`);
    }
    if (round === 0) await new Promise((r) => setTimeout(r, 8000));
  }
}

/**
 * One measured run: the page load, its visual metrics (ours and speedline's Speed Index), one progress line; a
 * failed load becomes a record with its error.
 * @param {import('@playwright/test').Browser} browser @param {string} pageUrl the address the lab opens (pageUrlOf)
 * @param {import('./measure.mjs').BrowserProfile} profile
 * @param {{ profile: string, variant: string, run: number }} base
 * @param {{ run: string, variant: string }} labels for the progress line
 * @param {(s: string) => void} say
 * @param {{ timeoutMs?: number, site?: URL }} [options] how long the load may take; the address the user gave, which
 *   messages name (default `pageUrl`)
 * @returns {Promise<{ record: any, frames?: import('./measure.mjs').Frame[] }>}
 */
export async function measureRun(browser, pageUrl, profile, base, labels, say, options = {}) {
  const { timeoutMs = defaultPageTimeoutMs, site = new URL(pageUrl) } = options;
  const startMs = performance.now();
  try {
    const { frames, ...loaded } = await loadPage(browser, pageUrl, profile, { timeoutMs, site });
    // The page measured without some of its files, lost by the lab (its front had no answer from wrangler dev), is
    // not the page: until 2026-11-28 such a run counted, 502s in its timeline and fewer bytes (0.58 MB, not 0.65).
    if (loaded.labErrors.length > 0) {
      const lost = loaded.labErrors.slice(0, 5).join('; ');
      throw new Error(
        `the lab's HTTP/2 front got no answer from wrangler dev for ${loaded.labErrors.length} request(s) (the lab failed, not the site): ${lost}`,
      );
    }
    const visual = await visualMetrics(frames);
    // A page that ended blank (its files failed: the site went down mid-run, a Worker broke them) has a Speed Index
    // of a few ms and would pass for the fastest load: it is a failed run.
    if (visual.blankAtEnd) {
      const failed = loaded.failedRequests.slice(0, 5).join(', ');
      throw new Error(`the page showed nothing (its last frame is blank); failed requests: ${failed || 'none'}`);
    }
    const speedlineSiMs = await speedlineSpeedIndex(frames).catch(() => Number.NaN);
    const record = {
      ...base,
      ...loaded,
      speedIndexMs: visual.speedIndexMs,
      speedlineSpeedIndexMs: speedlineSiMs,
      speedIndexVsSpeedlinePct: (100 * (visual.speedIndexMs - speedlineSiMs)) / speedlineSiMs,
      visuallyComplete85Ms: visual.visuallyComplete85Ms,
      visuallyComplete100Ms: visual.visuallyComplete100Ms,
      firstVisualChangeMs: visual.firstVisualChangeMs,
      // The screencast sends a frame whenever the screen changes (tested at ≥ 10/s); Chromium itself repaints a
      // partially loaded image about once a second, so slow image loads give few frames.
      frames: frames.length,
      progress: visual.progress.map((p) => [Math.round(p.timeMs), Math.round(p.progress * 1000) / 10]),
    };
    const seconds = ((performance.now() - startMs) / 1000).toFixed(1);
    say(
      `  ${labels.run} ${labels.variant.padEnd(18)} SI ${Math.round(record.speedIndexMs)} ms, LCP ${Math.round(record.lcpMs)} ms, ` +
        `${(record.totalBytes / 1e6).toFixed(2)} MB, ${record.protocol} (${seconds} s)`,
    );
    return { record, frames };
  } catch (error) {
    const message = withTimeoutHint(/** @type {Error} */ (error).message, timeoutMs);
    say(`  ${labels.run} ${labels.variant}: FAILED ${message}`);
    return { record: { ...base, error: message } };
  }
}

/**
 * The representative (median Speed Index) run's filmstrip per variant, all on one time axis per profile.
 * @param {any[]} allRuns @param {Map<string, { timeMs: number, jpeg: Buffer }[]>} framesOf @param {string} profileName
 * @param {import('./variants.mjs').Variant[]} variants @param {number} thumbWidthPx
 */
async function filmstripsFor(allRuns, framesOf, profileName, variants, thumbWidthPx) {
  const mine = allRuns.filter((r) => r.profile === profileName && !r.error);
  /** @type {Record<string, any>} */
  const out = {};
  const picks = [];
  for (const variant of variants) {
    const runs = mine.filter((r) => r.variant === variant.id).sort((a, b) => a.speedIndexMs - b.speedIndexMs);
    const pick = runs[Math.floor((runs.length - 1) / 2)];
    if (pick) picks.push({ variant, pick });
  }
  const untilMs = Math.max(0, ...picks.map(({ pick }) => pick.visuallyComplete100Ms)) + 200;
  for (const { variant, pick } of picks) {
    // Every run that did not fail kept its frames.
    const frames = /** @type {{ timeMs: number, jpeg: Buffer }[]} */ (framesOf.get(`${variant.id}#${pick.run}`));
    const strip = await filmstrip(frames, untilMs, thumbWidthPx);
    out[variant.id] = { run: pick.run, lcpMs: pick.lcpMs, visuallyComplete100Ms: pick.visuallyComplete100Ms, ...strip };
  }
  return out;
}
