// Ground truth measured on the same shaped link in the same run: iperf3 goodput per direction (straight over the
// veth, no proxy), HTTP RTT probes with curl through the same proxy the browsers use, and wire byte counters of the
// server's veth end (what the server really sent and received, headers and retransmissions included).
import { curlRttsMs, iperfGoodputBps } from './stats.mjs';

const iperfPort = 5201;

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * iperf3 goodput in bits/s for one direction: receiver bytes over seconds after a 1 s warm-up.
 * @param {Link} link
 * @param {'down' | 'up'} direction
 * @param {number} seconds
 */
export async function iperfBps(link, direction, seconds) {
  const server = link.spawn(link.serverNs, 'iperf3', ['-s', '-1', '-J', '-B', link.serverIp, '-p', String(iperfPort)], {
    stdio: 'ignore',
  });
  try {
    // Bounded wait until the server listens: 40 tries, 50 ms apart.
    for (let attempt = 0; attempt < 40; attempt++) {
      const probe = await link.exec(link.serverNs, 'ss', ['-Hltn', `sport = :${iperfPort}`], { timeoutMs: 3_000 });
      if (probe.output.includes(String(iperfPort))) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const args = ['-c', link.serverIp, '-p', String(iperfPort), '-t', String(seconds + 1), '-O', '1', '-J'];
    if (direction === 'down') args.push('-R');
    else args.push('--get-server-output');
    const { code, output } = await link.exec(link.clientNs, 'iperf3', args, { timeoutMs: (seconds + 20) * 1000 });
    if (code !== 0) throw new Error(`iperf3 ${direction} failed (${code}): ${output.slice(0, 400)}`);
    const report = JSON.parse(output);
    // Upload: the receiver is the server, whose own report iperf3 relays with --get-server-output.
    return iperfGoodputBps(direction === 'down' ? report : (report.server_output_json ?? {}));
  } finally {
    server.kill('SIGKILL');
  }
}

/**
 * HTTP RTTs (ms, server time subtracted) of `count` zero-byte downloads on one kept-alive connection, the way a
 * browser measures latency. The first request (connection setup) is dropped.
 * @param {Link} link
 * @param {string} origin e.g. http://10.99.0.1:8900
 * @param {number} count
 */
export async function curlRtts(link, origin, count) {
  const urls = Array.from({ length: count + 1 }, (_, i) => `${origin}/__down?bytes=0&measId=truth${i}`);
  const args = ['-s', '-m', '60', '-w', '%{time_pretransfer} %{time_starttransfer} %header{server-timing}\n'];
  for (const url of urls) args.push('-o', '/dev/null', url);
  const { code, output } = await link.exec(link.clientNs, 'curl', args, { timeoutMs: 90_000 });
  if (code !== 0) throw new Error(`curl probes failed (${code}): ${output.slice(0, 400)}`);
  return curlRttsMs(output).slice(1);
}

/**
 * Bytes through the server's veth end so far: tx = sent to the client (download), rx = received (upload).
 * @param {Link} link
 */
export async function wireBytes(link) {
  const { output } = await link.exec(link.serverNs, 'ip', ['-s', '-j', 'link', 'show'], { timeoutMs: 5_000 });
  /** @type {{ ifname: string, stats64?: { rx: { bytes: number }, tx: { bytes: number } } }[]} */
  const links = JSON.parse(output);
  const veth = links.find((entry) => entry.ifname !== 'lo');
  return { txBytes: veth?.stats64?.tx.bytes ?? Number.NaN, rxBytes: veth?.stats64?.rx.bytes ?? Number.NaN };
}
