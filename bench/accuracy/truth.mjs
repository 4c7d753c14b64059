// Ground truth measured on the same shaped link in the same run: iperf3 goodput per direction (one TCP stream across
// the same emulated path, with its RTT and loss), HTTP RTT probes with curl to the Worker the browsers use, and wire
// byte counters of the server's veth end (what the server really sent and received, headers and retransmissions included).
import { startIperfServer } from '../lib/iperf-server.mjs';
import { curlRttsMs, iperfGoodputBps } from './stats.mjs';

const iperfPort = 5201;

/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * Seconds of iperf3 measurement (and of warm-up) for a line rate. The receiver counts bytes when they reach the
 * application, so bytes delivered late (most likely held for reordering after a loss, once the 400 ms tbf queue
 * fills, which only slow links do) can cross a window edge. Measured at 2 Mbit/s on an idle machine: four 5 s windows
 * read 1.987-1.991 Mbit/s against a line goodput of 1.913 (+4%), with 1 s intervals from 0.4 to 4.7 Mbit/s. A longer
 * window after a longer warm-up dilutes that edge error.
 * @param {number} rateMbit line rate of the measured direction
 * @param {number} baseSeconds the window on fast links
 */
export function iperfWindow(rateMbit, baseSeconds) {
  return rateMbit <= 10
    ? { seconds: Math.max(baseSeconds, 15), warmUpSeconds: 2 }
    : { seconds: baseSeconds, warmUpSeconds: 1 };
}

/**
 * The receiver's part of an iperf3 client's JSON report: the client's own for a download (`-R`), the server's
 * (relayed with `--get-server-output`) for an upload.
 * @param {any} report
 * @param {'down' | 'up'} direction
 */
export function iperfReceiverReport(report, direction) {
  return direction === 'down' ? report : (report.server_output_json ?? {});
}

/**
 * iperf3 goodput in bits/s for one direction: receiver bytes over seconds after the warm-up.
 * @param {Link} link
 * @param {'down' | 'up'} direction
 * @param {{ seconds: number, warmUpSeconds: number }} window
 * @param {number} [streams] parallel TCP streams (`-P`): one for the truth, more only in diagnostics
 */
export async function iperfBps(link, direction, { seconds, warmUpSeconds }, streams = 1) {
  const server = await startIperfServer(link, iperfPort);
  try {
    const args = ['-c', link.serverIp, '-p', String(iperfPort), '-t', String(seconds + warmUpSeconds)];
    args.push('-O', String(warmUpSeconds), '-J');
    if (streams > 1) args.push('-P', String(streams));
    if (direction === 'down') args.push('-R');
    else args.push('--get-server-output');
    const timeoutMs = (seconds + warmUpSeconds + 20) * 1000;
    const { code, output } = await link.exec(link.clientNs, 'iperf3', args, { timeoutMs });
    if (code !== 0) throw new Error(`iperf3 ${direction} failed (${code}): ${output.slice(0, 400)}`);
    return iperfGoodputBps(iperfReceiverReport(JSON.parse(output), direction));
  } finally {
    server.kill('SIGKILL');
  }
}

/**
 * Start-to-start spacing of the curl probes (ms). Back-to-back requests keep every process on the server path
 * (wrangler dev, workerd; toxiproxy when this was measured) and the VM's vCPUs awake, which no browser does: at +0 ms curl read 2.8-4.2 ms
 * back to back against 4.6-4.7 ms at one request per 20 ms (`--overhead`, docs/accuracy.md, which also shows the
 * 1.5-2 ms that Chromium's requests still add on this path). With the spacing the path idles between requests as it
 * does for the engines; a request slower than the spacing (any added delay) is simply followed by the next one.
 */
export const probeSpacingMs = 20;

/**
 * HTTP RTTs (ms, server time subtracted) of `count` zero-byte downloads on one kept-alive connection, the way a
 * browser measures latency, started at most every `spacingMs` (0 = back to back). The first request (connection
 * setup) is dropped.
 * @param {Link} link
 * @param {string} origin e.g. http://10.99.0.1:8900
 * @param {number} count
 * @param {number} [spacingMs]
 */
export async function curlRtts(link, origin, count, spacingMs = probeSpacingMs) {
  const urls = Array.from({ length: count + 1 }, (_, i) => `${origin}/__down?bytes=0&measId=truth${i}`);
  const args = ['-s', '-m', '60', '-w', '%{time_pretransfer} %{time_starttransfer} %header{server-timing}\n'];
  if (spacingMs > 0) args.push('--rate', `${Math.round(60_000 / spacingMs)}/m`);
  // `--front h2`: the probes take the engines' way, HTTP/2 through the front (self-signed certificate).
  if (origin.startsWith('https:')) args.push('-k', '--http2');
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
