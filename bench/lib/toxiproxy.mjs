// Added delay and jitter for a shaped link, in user space: this kernel has no netem, so a toxiproxy 2.5.0 TCP proxy
// inside a namespace holds each chunk of application data for the configured time. It delays data, not TCP
// handshakes or ACKs, so TCP itself still sees the veth's near-zero RTT: measure latency at the HTTP level.
//
//   const proxy = await startToxiproxy(link, { ns: link.serverNs, listenPort: 8900, upstreamPort: 8811 });
//   await proxy.setDelay({ rttMs: 40, jitterMs: 10 }); // clients now use http://${link.serverIp}:8900
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { exec } from '../../scripts/lib/exec.mjs';
import { cacheRoot, versions } from '../../scripts/lib/tools.mjs';

const version = versions.toxiproxy;
const toolDir = join(cacheRoot, `toxiproxy-${version}`);
export const toxiproxyPath = join(toolDir, 'bin', 'server');

/**
 * Builds toxiproxy's server from the Go module proxy once per machine (~30 s), into the user tool cache. `npm test`'s
 * setup does this up front; a bench run by hand builds it here if it is missing.
 * @param {string} [go] the Go binary (default: `go` on PATH)
 * @returns {Promise<string>} path of the server binary
 */
export async function ensureToxiproxy(go = 'go') {
  if (existsSync(toxiproxyPath)) return toxiproxyPath;
  mkdirSync(toolDir, { recursive: true });
  const env = { ...process.env, GOBIN: join(toolDir, 'bin'), GOPATH: join(toolDir, 'gopath'), GOFLAGS: '-modcacherw' };
  const result = await exec(go, ['install', `github.com/Shopify/toxiproxy/v2/cmd/server@v${version}`], {
    env,
    quiet: true,
  });
  if (result.code !== 0 || !existsSync(toxiproxyPath)) {
    throw new Error(`could not build toxiproxy ${version} with go (is Go installed?): ${result.output.slice(-800)}`);
  }
  return toxiproxyPath;
}

/**
 * Starts toxiproxy inside `ns` proxying `listenHost:listenPort` -> `127.0.0.1:upstreamPort`. Its API listens on the
 * namespace's loopback and is driven with curl inside the namespace (the caller lives outside it).
 * @param {Awaited<ReturnType<typeof import('./shaped-link.mjs').createShapedLink>>} link
 * @param {{ ns: string, listenPort: number, upstreamPort: number, listenHost?: string, apiPort?: number }} options
 */
export async function startToxiproxy(link, { ns, listenPort, upstreamPort, listenHost = '0.0.0.0', apiPort = 8474 }) {
  const binary = await ensureToxiproxy();
  const server = link.spawn(ns, binary, ['-host', '127.0.0.1', '-port', String(apiPort)], { stdio: 'ignore' });
  const api = `http://127.0.0.1:${apiPort}`;

  /** @param {string} method @param {string} path @param {unknown} [body] */
  const call = async (method, path, body) => {
    const args = ['-sS', '-m', '5', '-X', method, '-w', '\n%{http_code}', `${api}${path}`];
    if (body !== undefined) args.push('-H', 'Content-Type: application/json', '--data', JSON.stringify(body));
    const { code, output } = await link.exec(ns, 'curl', args, { timeoutMs: 10_000 });
    const status = Number(output.trim().split('\n').at(-1));
    if (code !== 0 || !((status >= 200 && status < 300) || (method === 'DELETE' && status === 404))) {
      throw new Error(`toxiproxy ${method} ${path} failed (curl ${code}, HTTP ${status}): ${output.trim()}`);
    }
  };

  // Bounded wait for the API: 50 tries, 100 ms apart.
  for (let attempt = 0; ; attempt++) {
    const probe = await link.exec(ns, 'curl', ['-sS', '-m', '1', `${api}/version`], { timeoutMs: 3_000 });
    if (probe.code === 0) break;
    if (attempt >= 50 || server.exitCode !== null) throw new Error(`toxiproxy did not start: ${probe.output.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await call('POST', '/proxies', {
    name: 'link',
    listen: `${listenHost}:${listenPort}`,
    upstream: `127.0.0.1:${upstreamPort}`,
    enabled: true,
  });

  return {
    /**
     * Replaces the delay: half the RTT on each direction; jitter (uniform ±jitterMs, whole ms) on the downstream
     * (server -> client) half only, so a request's RTT varies by exactly one uniform draw.
     * @param {{ rttMs: number, jitterMs?: number }} delay
     */
    setDelay: async ({ rttMs, jitterMs = 0 }) => {
      await call('DELETE', '/proxies/link/toxics/up');
      await call('DELETE', '/proxies/link/toxics/down');
      if (rttMs <= 0 && jitterMs <= 0) return;
      const upMs = Math.floor(rttMs / 2);
      const downMs = rttMs - upMs;
      for (const [name, stream, latency, jitter] of /** @type {const} */ ([
        ['up', 'upstream', upMs, 0],
        ['down', 'downstream', downMs, jitterMs],
      ])) {
        if (latency === 0 && jitter === 0) continue;
        await call('POST', '/proxies/link/toxics', {
          name,
          type: 'latency',
          stream,
          toxicity: 1,
          attributes: { latency, jitter },
        });
      }
    },
    /** Stops the proxy process (the link's destroy() would also do it). */
    stop: async () => {
      server.kill('SIGTERM');
    },
  };
}
