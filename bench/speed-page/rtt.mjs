// The one place round-trip time is added to the lab's link, so a kernel-level emulator (real RTT that TCP sees,
// bench/lib/shaped-link's TUN router once it lands) can replace it without touching the rest. Today: a toxiproxy
// latency toxic per entry port, half the RTT each way. It delays application data, not TCP handshakes or ACKs, so
// the RTT is application-level: TCP's own slow start and loss recovery still see the veth's ~0 ms.
import { startToxiproxy } from '../lib/toxiproxy.mjs';

export const rttMechanism =
  'application-level (toxiproxy latency toxic, half each way; TCP handshakes and ACKs are not delayed)';

/**
 * Puts a delaying entry in front of each backend port inside the server namespace: clients connect to
 * `link.serverIp:<port>`, the backend listens on 127.0.0.1:<port>. `setRttMs` changes the delay of every entry.
 * @param {any} link from createShapedLink
 * @param {number[]} ports
 * @param {number} firstApiPort toxiproxy API ports (namespace-private loopback), one per entry
 */
export async function addRtt(link, ports, firstApiPort) {
  const proxies = [];
  for (const [index, port] of ports.entries()) {
    const proxy = await startToxiproxy(link, {
      ns: link.serverNs,
      listenHost: link.serverIp,
      listenPort: port,
      upstreamPort: port,
      apiPort: firstApiPort + index,
    });
    proxies.push(proxy);
  }
  return {
    mechanism: rttMechanism,
    /** @param {number} rttMs */
    setRttMs: async (rttMs) => {
      for (const proxy of proxies) await proxy.setDelay({ rttMs });
    },
    stop: async () => {
      for (const proxy of proxies) await proxy.stop();
    },
  };
}
