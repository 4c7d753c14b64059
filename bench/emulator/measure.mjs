// Measurements across a routed shaped link (adapters): ping RTTs, single-stream TCP goodput and UDP loss with
// iperf3, and the emulator's CPU time. Each runs the real tools in the link's namespaces.
import { startIperfServer } from '../lib/iperf-server.mjs';
import { iperfUdpLoss, medianIntervalBps } from './stats.mjs';

const iperfPort = 5202;
/** @typedef {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} Link */

/**
 * ICMP echo RTTs (ms) client → server, one every `intervalMs` (ping's own clock, kernel timestamps).
 * @param {Link} link @param {number} count @param {number} [intervalMs]
 */
export async function pingRttsMs(link, count, intervalMs = 100) {
  const args = ['-n', '-c', String(count), '-i', String(intervalMs / 1000), '-W', '2', link.serverIp];
  const { code, output } = await link.exec(link.clientNs, 'ping', args, { timeoutMs: count * intervalMs + 30_000 });
  if (code !== 0 && code !== 1) throw new Error(`ping failed (${code}): ${output.slice(0, 300)}`);
  return [...output.matchAll(/time=([\d.]+) ms/g)].map((m) => Number(m[1]));
}

/**
 * Single-stream TCP goodput (bits/s, median of the receiver's per-second intervals after the warm-up) and the
 * emulator's CPU seconds over the run.
 * @param {Link} link @param {'down' | 'up'} direction @param {{ seconds: number, warmUpSeconds: number }} window
 */
export async function tcpGoodput(link, direction, { seconds, warmUpSeconds }) {
  const server = await startIperfServer(link, iperfPort);
  try {
    const before = await link.emulatorStats();
    const args = ['-c', link.serverIp, '-p', String(iperfPort), '-t', String(seconds + warmUpSeconds)];
    args.push('-O', String(warmUpSeconds), '-J', direction === 'down' ? '-R' : '--get-server-output');
    const { code, output } = await link.exec(link.clientNs, 'iperf3', args, {
      timeoutMs: (seconds + warmUpSeconds + 30) * 1000,
    });
    const after = await link.emulatorStats();
    if (code !== 0) throw new Error(`iperf3 ${direction} failed (${code}): ${output.slice(0, 400)}`);
    const report = JSON.parse(output);
    const receiver = direction === 'down' ? report : (report.server_output_json ?? {});
    const wallSeconds = seconds + warmUpSeconds;
    const cpuSeconds = (after.cpu_user_ms + after.cpu_system_ms - before.cpu_user_ms - before.cpu_system_ms) / 1000;
    const forwardedBytes = after.down.bytes_out + after.up.bytes_out - before.down.bytes_out - before.up.bytes_out;
    const dataLine = direction === 'down' ? 'down' : 'up';
    return {
      // Segments the emulator dropped on the data direction, and super-packets it cut because of them (older
      // builds report no cut_frames).
      emulatorDropped: after[dataLine].dropped - before[dataLine].dropped,
      cutFrames: (after.cut_frames ?? Number.NaN) - (before.cut_frames ?? Number.NaN),
      bps: medianIntervalBps(receiver),
      retransmits: report.end?.sum_sent?.retransmits ?? Number.NaN,
      emulatorCpuShare: cpuSeconds / wallSeconds,
      forwardedBps: (forwardedBytes * 8) / wallSeconds,
    };
  } finally {
    server.kill('SIGKILL');
  }
}

/**
 * UDP datagram loss (%) seen by the receiver of `packets` datagrams of `bytes` at `rateMbit`, with the emulator's
 * own drop count over the same run for comparison.
 * @param {Link} link @param {'down' | 'up'} direction
 * @param {{ packets: number, bytes: number, rateMbit: number }} options
 */
export async function udpLoss(link, direction, options) {
  const first = await udpLossOnce(link, direction, options);
  // One retry when iperf3 exited cleanly without a receiver report (seen once in 16 runs on a busy machine).
  return Number.isFinite(first.packets) ? first : udpLossOnce(link, direction, options);
}

/** @param {Link} link @param {'down' | 'up'} direction @param {{ packets: number, bytes: number, rateMbit: number }} options */
async function udpLossOnce(link, direction, { packets, bytes, rateMbit }) {
  const server = await startIperfServer(link, iperfPort);
  try {
    const before = await link.emulatorStats();
    // 4 MiB socket buffers (net.core.rmem_max here): with the default 208 KiB a receiver descheduled for a few ms on a
    // busy machine overflows its buffer, and those drops would be counted as link loss.
    const args = [
      '-c',
      link.serverIp,
      '-p',
      String(iperfPort),
      '-u',
      '-b',
      `${rateMbit}M`,
      '-l',
      String(bytes),
      '-w',
      '4M',
    ];
    args.push('-k', String(packets), '-J', direction === 'down' ? '-R' : '--get-server-output');
    const expectedSeconds = (packets * bytes * 8) / (rateMbit * 1e6);
    const { code, output } = await link.exec(link.clientNs, 'iperf3', args, {
      timeoutMs: (expectedSeconds + 30) * 1000,
    });
    // Let the last datagrams cross the delay line before reading the emulator's counters.
    await new Promise((resolve) => setTimeout(resolve, 500));
    const after = await link.emulatorStats();
    if (code !== 0) throw new Error(`iperf3 -u ${direction} failed (${code}): ${output.slice(0, 400)}`);
    const report = JSON.parse(output);
    const receiver = direction === 'down' ? report : (report.server_output_json ?? {});
    const counters = (/** @type {Awaited<ReturnType<Link['emulatorStats']>>} */ s) => s[direction];
    return {
      ...iperfUdpLoss(receiver),
      emulatorDropped: counters(after).dropped - counters(before).dropped,
      emulatorPackets: counters(after).packets_in - counters(before).packets_in,
    };
  } finally {
    server.kill('SIGKILL');
  }
}
