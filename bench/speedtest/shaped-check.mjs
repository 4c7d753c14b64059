// Quick accuracy check on a shaped link (not part of `npm test`): `node bench/speedtest/shaped-check.mjs 50/10 200/50`.
// Runs our engine and @cloudflare/speedtest once per rate pair on a tbf-shaped veth link (bench/lib/shaped-link.mjs,
// prefix "skst") and prints their figures next to the expected TCP goodput (rate × 1448/1514). The full testbed with
// iperf3 truth, added delay and repetitions is bench/accuracy (`npm run bench:accuracy`).
import { openSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { repoRoot, toolEnv } from '../../scripts/lib/tools.mjs';
import { goodputOfRateBps } from '../lib/line-goodput.mjs';
import { createShapedLink } from '../lib/shaped-link.mjs';

const pairs = (process.argv.slice(2).length ? process.argv.slice(2) : ['50/10']).map((pair) =>
  pair.split('/').map(Number),
);
const port = 8812;
const logFd = openSync('/tmp/skst-wrangler.log', 'w');
const goodput = (/** @type {number} */ mbit) => goodputOfRateBps(mbit) / 1e6;

for (const [downMbit, upMbit] of pairs) {
  const link = await createShapedLink({ prefix: 'skst', downMbit, upMbit });
  try {
    const server = link.spawn(
      link.serverNs,
      'wrangler',
      ['dev', '--ip', '0.0.0.0', '--port', String(port), '--persist-to', '/tmp/skst-state'],
      {
        cwd: repoRoot,
        env: toolEnv(),
        // wrangler's log (one line per request, errors) for when a request fails: /tmp/skst-wrangler.log
        stdio: ['ignore', logFd, logFd],
      },
    );
    const origin = `http://${link.serverIp}:${port}`;
    for (let i = 0; i < 120; i++) {
      const probe = await link.exec(
        link.clientNs,
        'curl',
        ['-s', '-o', '/dev/null', '-w', '%{http_code}', `${origin}/meta`],
        { timeoutMs: 5000 },
      );
      if (probe.output.trim() === '200') break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    const browser = await chromium.launch({
      executablePath: link.chromiumPath,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-dev-shm-usage'],
    });
    const page = await browser.newPage();
    let started = Date.now();
    await page.goto(process.env.SKIP_OURS ? 'about:blank' : `${origin}/?autostart=1`);
    const ours = process.env.SKIP_OURS
      ? 'skipped'
      : await (
          await page.waitForFunction(() => window.__speedkitResult ?? window.__speedkitError, null, {
            timeout: 120_000,
          })
        ).jsonValue();
    const oursMs = Date.now() - started;
    started = Date.now();
    // Each engine in a fresh context, as separate visits would be (no shared connection pool or cache).
    const basePage = process.env.SAME_CONTEXT ? page : await (await browser.newContext()).newPage();
    if (process.env.SKIP_BASELINE) await basePage.goto('about:blank');
    else await basePage.goto(`${origin}/baseline.html`);
    const base = process.env.SKIP_BASELINE
      ? 'skipped'
      : await (
          await basePage.waitForFunction(() => window.__baselineResult ?? window.__baselineError, null, {
            timeout: 300_000,
          })
        ).jsonValue();
    const baseMs = Date.now() - started;
    await browser.close();
    server.kill?.('SIGTERM');
    const mbps = (/** @type {number | undefined} */ bps) => ((bps ?? Number.NaN) / 1e6).toFixed(1);
    console.log(
      `link ${downMbit}/${upMbit} Mbit/s, expected goodput ${goodput(downMbit).toFixed(1)}/${goodput(upMbit).toFixed(1)}`,
    );
    // waitForFunction resolves only on a truthy value: a result or the page's error message.
    if (typeof ours !== 'object') console.log(`  speedkit failed: ${ours}`);
    else
      console.log(
        `  speedkit: ${mbps(ours.download?.bitsPerSecond.value)}/${mbps(ours.upload?.bitsPerSecond.value)} Mbit/s (${ours.download?.bitsPerSecond.level}/${ours.upload?.bitsPerSecond.level}, streams ${ours.download?.streams}/${ours.upload?.streams}, stop ${ours.download?.stopReason}/${ours.upload?.stopReason}), latency ${ours.latency.idleMs.value.toFixed(1)} ms, loaded ${ours.latency.downloadLoadedMs?.value.toFixed(0)}/${ours.latency.uploadLoadedMs?.value.toFixed(0)} ms, ${((ours.totalBytes.download + ours.totalBytes.upload) / 1e6).toFixed(0)} MB, ${(oursMs / 1000).toFixed(1)} s`,
      );
    if (process.env.DEBUG && typeof ours === 'object') {
      for (const direction of ['download', 'upload']) {
        const line = ours.intervals
          .filter((i) => i.direction === direction)
          .map((i) => `${mbps(i.bitsPerSecond)}@${i.streams}`);
        console.log(`  ${direction} intervals: ${line.join(' ')}`);
      }
    }
    if (typeof base !== 'object') console.log(`  @cloudflare/speedtest failed: ${base}`);
    else
      console.log(
        `  @cloudflare/speedtest: ${mbps(base.summary.download)}/${mbps(base.summary.upload)} Mbit/s, latency ${base.summary.latency?.toFixed(1)} ms, loaded ${base.summary.downLoadedLatency?.toFixed(0)}/${base.summary.upLoadedLatency?.toFixed(0)} ms, ${((base.bytes.download + base.bytes.upload) / 1e6).toFixed(0)} MB, ${(baseMs / 1000).toFixed(1)} s`,
      );
  } finally {
    await link.destroy();
  }
}
