// A one-shot iperf3 server for the shaped-link benches (accuracy truth, emulator validation, diagnostics).

/** @typedef {Awaited<ReturnType<typeof import('./shaped-link.mjs').createShapedLink>>} Link */

/**
 * A one-shot iperf3 server (`-s -1 -J`: it serves one test, and its JSON report is what an upload's client relays
 * with `--get-server-output`) in the server namespace on `port`, once it listens.
 * @param {Link} link
 * @param {number} port
 */
export async function startIperfServer(link, port) {
  const server = link.spawn(link.serverNs, 'iperf3', ['-s', '-1', '-J', '-B', link.serverIp, '-p', String(port)], {
    stdio: 'ignore',
  });
  // Bounded wait until the server listens: 40 tries, 50 ms apart.
  for (let attempt = 0; attempt < 40; attempt++) {
    const probe = await link.exec(link.serverNs, 'ss', ['-Hltn', `sport = :${port}`], { timeoutMs: 3_000 });
    if (probe.output.includes(String(port))) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return server;
}
