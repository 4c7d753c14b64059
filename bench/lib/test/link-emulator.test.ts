// The emulator smoke of `npm test`: one routed link at 40 ms RTT with 2 % loss each way, checked with ping, iperf3
// UDP and a short TCP transfer whose super-packets the emulator cuts (the full validation is `npm run bench:emulator`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pingRttsMs, tcpGoodput, udpLoss } from '../../emulator/measure.mjs';
import { median } from '../../emulator/stats.mjs';
import { symmetricConditions } from '../link-conditions.mjs';
import { linkNames } from '../link-topology.mjs';
import { canCreateNamespaces, createShapedLink } from '../shaped-link.mjs';

const capability = await canCreateNamespaces({ emulator: true });
if (!capability.ok) console.warn(`SKIP link emulator smoke: ${capability.reason}`);

// A session running tests beside others passes its own prefix (a link deletes stale namespaces of its prefix).
const prefix = process.env.LINK_EMULATOR_TEST_PREFIX ?? 'skemutest';

describe.skipIf(!capability.ok)('link emulator on a routed shaped link', () => {
  let link: Awaited<ReturnType<typeof createShapedLink>>;

  beforeAll(async () => {
    link = await createShapedLink({
      prefix,
      downMbit: 1000,
      upMbit: 1000,
      ...symmetricConditions({ rttMs: 40, lossPercent: 2 }),
    });
  }, 60_000);
  afterAll(async () => {
    await link?.destroy();
  });

  // No packet may leave early, and the fastest echoes show the configured RTT; the median carries the scheduling
  // delay of whatever else runs (it read +1.6 ms once while the rest of `npm test` ran in parallel), hence 5 ms.
  it('gives ping the configured RTT (minimum within 1 ms, median within 5 ms on a loaded machine)', async () => {
    const rtts = await pingRttsMs(link, 40, 50);
    expect(rtts.length).toBeGreaterThan(30);
    expect(Math.min(...rtts)).toBeGreaterThanOrEqual(39.9);
    expect(Math.min(...rtts)).toBeLessThan(41);
    expect(median(rtts) - 40).toBeLessThan(5);
  }, 30_000);

  it('drops 2 % of the datagrams in each direction (±15 % relative over 2·10⁴)', async () => {
    for (const direction of ['down', 'up'] as const) {
      const loss = await udpLoss(link, direction, { packets: 20_000, bytes: 1000, rateMbit: 40 });
      expect(loss.packets).toBeGreaterThan(19_000);
      expect(Math.abs(loss.lossPercent / 2 - 1)).toBeLessThan(0.15);
    }
  }, 60_000);

  // Over veth a partial checksum is trusted as it is; with transmit checksumming off on the router's veths the kernel
  // completes every checksum in software and the client verifies it, so a cut run with a wrong pseudo-header sum,
  // length or sequence number would show as checksum errors or a stalled transfer.
  it('cuts TCP super-packets where segments are dropped, into runs the receiver accepts', async () => {
    const names = linkNames(prefix);
    for (const dev of [names.routerServerDev, names.routerClientDev]) {
      const off = await link.exec(names.routerNs, 'ethtool', ['-K', dev, 'tx', 'off']);
      expect(off.code).toBe(0);
    }
    const tcp = await tcpGoodput(link, 'down', { seconds: 3, warmUpSeconds: 1 });
    expect(tcp.bps).toBeGreaterThan(1e6);
    expect(tcp.emulatorDropped).toBeGreaterThan(0);
    expect(tcp.cutFrames).toBeGreaterThan(0);
    const counters = await link.exec(link.clientNs, 'nstat', ['-az', 'TcpInCsumErrors']);
    expect(counters.code).toBe(0);
    expect(counters.output).toMatch(/TcpInCsumErrors\s+0\s/);
  }, 60_000);

  it('forwards without delay or loss once the conditions are perfect', async () => {
    await link.setConditions({});
    const rtts = await pingRttsMs(link, 10, 20);
    expect(rtts).toHaveLength(10);
    expect(median(rtts)).toBeLessThan(1);
  }, 30_000);
});
