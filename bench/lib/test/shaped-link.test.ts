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
/** How far iperf3 goodput may be from the shaped rate (relative). */
const tolerance = 0.03;
/**
 * The best of up to three short iperf3 runs, stopping at the first within `tolerance` of `expectedBps`: a run can
 * fall short of the shaped rate when the machine stalls (vitest runs the workerd suites beside this one; in a CI run
 * of 2026-11-29 with other work on the machine, two in a row read 5 and 6 % low), never exceed it. The accuracy
 * bench's truth takes the best of three likewise.
 */
const shapedBps = async (link: Parameters<typeof iperfBps>[0], direction: 'down' | 'up', expectedBps: number) => {
  let best = 0;
  for (let run = 0; run < 3 && !(Math.abs(best / expectedBps - 1) < tolerance); run++) {
    best = Math.max(best, await iperfBps(link, direction, twoSeconds));
  }
  return best;
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

    it('shapes the download to the tbf rate (iperf3 goodput within 3% of rate × 1448/1514)', async () => {
      const bps = await shapedBps(link, 'down', goodputBps(20));
      expect(Math.abs(bps / goodputBps(20) - 1)).toBeLessThan(tolerance);
    }, 30_000);

    it('shapes the upload independently of the download', async () => {
      const bps = await shapedBps(link, 'up', goodputBps(5));
      expect(Math.abs(bps / goodputBps(5) - 1)).toBeLessThan(tolerance);
    }, 30_000);

    it('changes rates in place with setRates', async () => {
      await link.setRates({ downMbit: 40, upMbit: 5 });
      const bps = await shapedBps(link, 'down', goodputBps(40));
      expect(Math.abs(bps / goodputBps(40) - 1)).toBeLessThan(tolerance);
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
