// What the loader costs the main thread on a repeat view, without a shaped link: every page is loaded once, left at
// network idle, then loaded again (HTML and scripts from the HTTP cache) under a Chromium trace. Per variant: the
// median executed mark, the median of per-run differences and ratios against the first variant loaded just before,
// and the loader's own EvaluateScript and FunctionCall (MutationObserver callbacks) time from the trace.
// Usage (after `npm run build`; a timing run, so under the machine's quiet lock):
//   node bench/loader/repeat-cost.mjs [--runs 21] [--port 18824] name=path[+decoder][+waitMs] ...
// `+decoder` starts the decoder after the first view (as remember.ts does where BinaryAST would win), `+wait3000`
// waits that long before the repeat view. Default variants: plain=/demo/loader-libs-plain loader=/demo/loader-libs.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { chromium } from '@playwright/test';
import { median, pairedSummary } from './report.mjs';
import { startDecoder } from './views.mjs';

const arg = (/** @type {string} */ name, /** @type {string} */ fallback) => {
  const at = process.argv.indexOf(name);
  return at > 0 ? String(process.argv[at + 1]) : fallback;
};
const runs = Number(arg('--runs', '21'));
const port = Number(arg('--port', '18824'));
const specs = process.argv.slice(2).filter((value) => value.includes('='));
const variants = (specs.length ? specs : ['plain=/demo/loader-libs-plain', 'loader=/demo/loader-libs']).map((spec) => {
  const [name = '', rest = ''] = spec.split('=');
  const [path = '', ...extras] = rest.split('+');
  return { name, path, extras };
});

const server = spawn(process.execPath, ['bench/loader/server.mjs', String(port)], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
await new Promise((resolve) => createInterface({ input: /** @type {any} */ (server.stdout) }).once('line', resolve));
const origin = `http://127.0.0.1:${port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
/** @typedef {{ executedMs: number, evaluateMs: number, callbackMs: number, callbacks: number }} Sample */
/** @type {Record<string, Sample[]>} */
const samples = {};
const executed = () => performance.getEntriesByName('app:executed').length > 0;
try {
  for (let run = 0; run < runs; run++) {
    for (const { name, path, extras } of variants) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(origin + path);
      await page.waitForFunction(executed);
      await page.waitForLoadState('networkidle');
      if (extras.includes('decoder')) {
        await startDecoder(page);
        await page.waitForLoadState('networkidle');
      }
      const wait = extras.find((extra) => extra.startsWith('wait'));
      if (wait) await page.waitForTimeout(Number(wait.slice(4)));
      await browser.startTracing(page, { categories: ['devtools.timeline', 'v8'] });
      await page.goto(origin + path);
      await page.waitForFunction(executed);
      const executedMs = await page.evaluate(() => performance.getEntriesByName('app:executed')[0]?.startTime ?? NaN);
      /** @type {{ name: string, ph: string, pid: number, tid: number, dur?: number, args?: any }[]} */
      const events = JSON.parse((await browser.stopTracing()).toString()).traceEvents;
      await context.close();
      // The renderer's main thread: the one that parsed the HTML.
      /** @type {Map<string, number>} */
      const parsing = new Map();
      for (const event of events)
        if (event.name === 'ParseHTML')
          parsing.set(`${event.pid}:${event.tid}`, (parsing.get(`${event.pid}:${event.tid}`) ?? 0) + 1);
      const main = [...parsing].sort((a, b) => b[1] - a[1])[0]?.[0];
      const sample = { executedMs, evaluateMs: 0, callbackMs: 0, callbacks: 0 };
      for (const event of events) {
        if (`${event.pid}:${event.tid}` !== main || event.ph !== 'X') continue;
        if (!/binast-loader/.test(String(event.args?.data?.url ?? ''))) continue;
        if (event.name === 'EvaluateScript') sample.evaluateMs += (event.dur ?? 0) / 1000;
        if (event.name === 'FunctionCall') {
          sample.callbackMs += (event.dur ?? 0) / 1000;
          sample.callbacks++;
        }
      }
      samples[name] = [...(samples[name] ?? []), sample];
    }
  }
} finally {
  await browser.close();
  server.kill();
}
const base = samples[variants[0]?.name ?? ''] ?? [];
for (const { name } of variants) {
  const mine = samples[name] ?? [];
  const diffs = mine.map((sample, run) => sample.executedMs - (base[run]?.executedMs ?? NaN));
  const ratios = mine.map((sample, run) => sample.executedMs / (base[run]?.executedMs ?? NaN));
  const added = pairedSummary(diffs, 0);
  const pick = (/** @type {keyof Sample} */ key) => median(mine.map((sample) => sample[key]));
  process.stdout.write(
    `${name.padEnd(14)} executed ${pick('executedMs').toFixed(1)} ms; per run ${median(ratios).toFixed(3)}x, ` +
      `${added.median.toFixed(1)} ms (95 % ${added.low.toFixed(1)} to ${added.high.toFixed(1)}), ` +
      `${added.slower}/${ratios.length} slower; loader evaluate ${pick('evaluateMs').toFixed(2)} ms, ` +
      `observer callbacks ${pick('callbackMs').toFixed(2)} ms (${pick('callbacks')})\n`,
  );
}
