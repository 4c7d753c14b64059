import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { iperfBps } from '../../accuracy/truth.mjs';
import { canCreateNamespaces, createShapedLink } from '../shaped-link.mjs';

const capability = await canCreateNamespaces();
const hasIperf = (() => {
  try {
    execFileSync('iperf3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
const skipReason = !capability.ok ? capability.reason : hasIperf ? undefined : 'iperf3 is not installed';
if (skipReason) console.warn(`SKIP shaped-link tests: ${skipReason}`);

const namespaces = () => execFileSync('ip', ['netns', 'list']).toString();
/** TCP goodput of a tbf line rate: 1448 payload bytes per 1514-byte frame. */
const goodputBps = (mbit: number) => (mbit * 1e6 * 1448) / 1514;
/** A short iperf3 window (s): enough to see the shaping, not meant as accuracy truth. */
const twoSeconds = { seconds: 2, warmUpSeconds: 1 };
/** How far above the shaped rate iperf3 goodput may read (relative): shaping missing or too loose shows here. */
const tolerance = 0.03;
/**
 * How far below it may read (relative). tbf's bucket was 1 ms of the rate until 2026-11-29 (now `bucketMs`, 10 ms,
 * in shaped-link.mjs), so a timer that fired late on a busy machine lost tokens: two CI runs of 2026-11-29 read the 20
 * and 40 Mbit/s downloads 3.2–6.0 % low after three tries each while the workerd suites ran beside them (alone, beside
 * two CPU-bound loops, or beside the emulator test: within 1 %). Kept as it was: a rate set wrong by a unit or not at
 * all is still far outside.
 */
const shortfall = 0.08;
/**
 * The best of up to three short iperf3 runs, stopping at the first within `tolerance` of `expectedBps`: a run can
 * fall short of the shaped rate when the machine stalls, never exceed it. The accuracy bench's truth takes the best
 * of three likewise.
 */
const shapedBps = async (link: Parameters<typeof iperfBps>[0], direction: 'down' | 'up', expectedBps: number) => {
  let best = 0;
  for (let run = 0; run < 3 && !(Math.abs(best / expectedBps - 1) < tolerance); run++) {
    best = Math.max(best, await iperfBps(link, direction, twoSeconds));
  }
  return best;
};
/** The goodput read against the shaped rate's: from `shortfall` under to `tolerance` over. */
const expectShaped = (bps: number, rateMbit: number) => {
  expect(bps / goodputBps(rateMbit)).toBeGreaterThan(1 - shortfall);
  expect(bps / goodputBps(rateMbit)).toBeLessThan(1 + tolerance);
};

// The reason is in the suite's name so `npm test` can print it next to the skip count.
describe.skipIf(skipReason !== undefined)(
  skipReason ? `createShapedLink (skipped: ${skipReason})` : 'createShapedLink',
  () => {
    let link: Awaited<ReturnType<typeof createShapedLink>>;

    beforeAll(async () => {
      link = await createShapedLink({
        // A session running tests beside others passes its own prefix (a link deletes stale namespaces of its prefix).
        prefix: process.env.SHAPED_LINK_TEST_PREFIX ?? 'sklinktest',
        downMbit: 20,
        upMbit: 5,
      });
    });
    afterAll(async () => {
      await link?.destroy();
    });

    it('shapes the download to the tbf rate (iperf3 goodput from 8 % under to 3 % over rate × 1448/1514)', async () => {
      expectShaped(await shapedBps(link, 'down', goodputBps(20)), 20);
    }, 30_000);

    it('shapes the upload independently of the download', async () => {
      expectShaped(await shapedBps(link, 'up', goodputBps(5)), 5);
    }, 30_000);

    it('changes rates in place with setRates', async () => {
      await link.setRates({ downMbit: 40, upMbit: 5 });
      expectShaped(await shapedBps(link, 'down', goodputBps(40)), 40);
    }, 30_000);

    it('destroy kills what runs inside and deletes both namespaces', async () => {
      const sleeper = link.spawn(link.serverNs, 'sleep', ['60'], { stdio: 'ignore' });
      const exited = new Promise((resolve) => sleeper.once('exit', resolve));
      await link.destroy();
      await exited;
      expect(namespaces()).not.toMatch(/^sklinktest-(srv|cli)\b/m);
    }, 30_000);
  },
);
