// `npm run bench:accuracy -- --overhead`: where the local latency overhead comes from. With no added delay it times
// zero-byte requests by curl and by a plain fetch loop in Chromium (no engine), each back to back and with idle gaps,
// against the Worker path (wrangler dev -> workerd) and against a trivial Node server on the same link.
// It backs the choice of paced curl probes as latency truth (truth.mjs `probeSpacingMs`).
import { median } from './stats.mjs';
import { curlRtts } from './truth.mjs';

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */
/** @typedef {{ path: string, client: string, gapMs: number, medianMs: number[] }} OverheadRow */

const trivialPort = 8123;
const requests = 30;

/**
 * @param {object} context
 * @param {Link} context.link
 * @param {{ origin: string, setDelay: (delay: { rttMs: number }) => Promise<void> }} context.server
 * @param {import('@playwright/test').Browser} context.browser
 * @param {{ rounds: number, log: (line: string) => void }} options
 * @returns {Promise<OverheadRow[]>}
 */
export async function measureOverhead({ link, server, browser }, { rounds, log }) {
  // A server with nothing in front and nothing behind: one process, answers every request at once.
  const script = `require('node:http').createServer((q, s) => s.end(q.url.startsWith('/page') ? '<p>probe' : ''))
    .listen(${trivialPort}, '${link.serverIp}')`;
  const trivial = link.spawn(link.serverNs, process.execPath, ['-e', script], { stdio: 'ignore' });
  try {
    await server.setDelay({ rttMs: 0 });
    const paths = [
      { path: 'Worker (wrangler dev)', origin: server.origin, page: '/meta' },
      { path: 'trivial Node server', origin: `http://${link.serverIp}:${trivialPort}`, page: '/page' },
    ];
    // Warm-up: first requests pay for connections and cold code paths.
    for (const { origin } of paths) await curlMedian(link, origin, 0);
    /** @type {OverheadRow[]} */
    const rows = [];
    for (const { path, origin, page } of paths) {
      for (const gapMs of [0, 20, 100]) {
        rows.push({ path, client: 'curl', gapMs, medianMs: [] });
        rows.push({ path, client: 'Chromium fetch loop', gapMs, medianMs: [] });
      }
      for (let round = 0; round < rounds; round++) {
        for (const row of rows.filter((r) => r.path === path)) {
          row.medianMs.push(
            row.client === 'curl'
              ? await curlMedian(link, origin, row.gapMs)
              : await browserMedian(browser, origin, page, row.gapMs),
          );
        }
      }
      for (const row of rows.filter((r) => r.path === path)) {
        log(`  ${path}, ${row.client}, gap ${row.gapMs} ms: ${row.medianMs.map((v) => v.toFixed(2)).join(' / ')} ms`);
      }
    }
    return rows;
  } finally {
    trivial.kill('SIGKILL');
  }
}

/** Median of `curlRtts` (truth.mjs) started at most every `gapMs` (0 = back to back). */
async function curlMedian(/** @type {Link} */ link, /** @type {string} */ origin, /** @type {number} */ gapMs) {
  return median(await curlRtts(link, origin, requests, gapMs));
}

/**
 * Median responseStart − requestStart (resource timing, as both engines read it) of sequential fetches from a page
 * on `origin`, each followed by `gapMs` of idle time.
 * @param {import('@playwright/test').Browser} browser @param {string} origin @param {string} pagePath
 * @param {number} gapMs
 */
async function browserMedian(browser, origin, pagePath, gapMs) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${origin}${pagePath}`);
    const times = await page.evaluate(
      async ({ count, gapMs }) => {
        const out = [];
        // Two extra requests first: a fresh context opens its connection on the first one.
        for (let i = 0; i < count + 2; i++) {
          const url = new URL(`/__down?bytes=0&measId=overhead-${i}-${Math.random()}`, location.href).href;
          const response = await fetch(url, { cache: 'no-store' });
          await response.arrayBuffer();
          const entry = /** @type {PerformanceResourceTiming} */ (performance.getEntriesByName(url).at(-1));
          out.push(entry.responseStart - entry.requestStart);
          if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
        }
        return out.slice(2);
      },
      { count: requests, gapMs },
    );
    return median(times);
  } finally {
    await context.close();
  }
}

/**
 * The diagnostic's table (pure).
 * @param {OverheadRow[]} rows
 */
export function overheadTable(rows) {
  const lines = rows.map(
    (row) =>
      `| ${row.path} | ${row.client} | ${row.gapMs === 0 ? 'back to back' : `${row.gapMs} ms`} | ` +
      `${row.medianMs.map((v) => v.toFixed(2)).join(' / ')} |`,
  );
  return [
    '| server path | client | idle gap between requests | median RTT per round, ms |',
    '|---|---|---|--:|',
    ...lines,
  ].join('\n');
}
