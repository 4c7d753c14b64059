// `node bench/accuracy/h2-front-ceiling.mjs [--profiles "1000/1000,100/100 80ms 0.5%"] [--rounds 3]`: whether the
// `--front h2` proxy (h2-front.mjs) limits throughput, without a browser or iperf3: one curl transfer of about 4 s of
// the line rate, download (`/__down`) and upload (`/__up`, POST), straight to wrangler dev over HTTP/1.1 and through
// the front over HTTP/2, alternating, with the front's CPU (% of one core) during each. Ad hoc (not part of
// `npm test`); needs root like the bench. Prints a table and writes bench/results/accuracy/h2-front-ceiling-<time>.json.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createShapedLink } from '../lib/shaped-link.mjs';
import { startProcessCpu } from './cpu-busy.mjs';
import { parseProfiles } from './profiles.mjs';
import { resultsDir } from './results.mjs';
import { startServer } from './server.mjs';
import { median } from './stats.mjs';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'skh2ceil' },
    profiles: { type: 'string', default: '1000/1000,100/100 80ms 0.5%' },
    rounds: { type: 'string', default: '3' },
  },
});
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const rounds = Math.max(1, Number(args.rounds));
const profiles = parseProfiles(args.profiles);
const startedAt = new Date();
const loadBefore = loadavg();
// Direct wrangler dev answers on 8900 (server.mjs); the front on the origin the server reports.
const wranglerPort = 8900;

/** @type {{ profile: string, direction: string, path: string, round: number, mbit: number, frontCpuPercent: number, httpVersion: string }[]} */
const runs = [];
const link = await createShapedLink({ prefix: args.prefix, downMbit: 100, upMbit: 100, emulator: true });
const bodyFile = join(tmpdir(), `h2-front-ceiling-${process.pid}.bin`);
try {
  const server = await startServer(link, { front: 'h2' });
  try {
    const direct = `http://${link.serverIp}:${wranglerPort}`;
    for (const profile of profiles) {
      await link.setRates({ downMbit: profile.downMbit, upMbit: profile.upMbit });
      await server.setDelay(profile);
      log(profile.id);
      for (let round = 1; round <= rounds; round++) {
        const order = round % 2 ? ['h1 direct', 'h2 front'] : ['h2 front', 'h1 direct'];
        for (const direction of ['down', 'up']) {
          const rateMbit = direction === 'down' ? profile.downMbit : profile.upMbit;
          // About 4 s of the line rate: long enough for slow start to matter little on these paths.
          const bytes = Math.min(250_000_000, Math.round((rateMbit * 1e6 * 4) / 8));
          if (direction === 'up') writeFileSync(bodyFile, Buffer.alloc(bytes));
          for (const path of order) {
            const origin = path === 'h2 front' ? server.origin : direct;
            const curlArgs = ['-s', '-m', '120', '-o', '/dev/null'];
            curlArgs.push('-w', '%{size_download} %{size_upload} %{time_pretransfer} %{time_total} %{http_version}');
            if (path === 'h2 front') curlArgs.push('-k', '--http2');
            if (direction === 'down') curlArgs.push(`${origin}/__down?bytes=${bytes}`);
            else curlArgs.push('--data-binary', `@${bodyFile}`, `${origin}/__up?bytes=${bytes}`);
            const cpu = server.frontPid !== undefined ? startProcessCpu(server.frontPid) : undefined;
            const { code, output } = await link.exec(link.clientNs, 'curl', curlArgs, { timeoutMs: 150_000 });
            const frontCpuPercent = cpu?.stop().meanPercent ?? Number.NaN;
            if (code !== 0) throw new Error(`curl ${path} ${direction} failed (${code}): ${output.slice(0, 300)}`);
            const [down, up, pretransfer, total, httpVersion] = output.trim().split(' ');
            const moved = direction === 'down' ? Number(down) : Number(up);
            // Bits over the time from the request's start to the last byte (connection setup left out).
            const mbit = (moved * 8) / (Number(total) - Number(pretransfer)) / 1e6;
            runs.push({ profile: profile.id, direction, path, round, mbit, frontCpuPercent, httpVersion });
            log(
              `  round ${round} ${direction.padEnd(4)} ${path} (HTTP/${httpVersion}): ${mbit.toFixed(1)} Mbit/s, front CPU ${frontCpuPercent.toFixed(0)} % of a core`,
            );
          }
        }
      }
    }
  } finally {
    await server.stop();
  }
} finally {
  rmSync(bodyFile, { force: true });
  await link.destroy();
}

const rows = [
  '| profile | direction | h1 direct, median (runs) Mbit/s | h2 front, median (runs) Mbit/s | front CPU, median % of a core |',
  '|---|---|--:|--:|--:|',
];
for (const profile of profiles) {
  for (const direction of ['down', 'up']) {
    const of = (/** @type {string} */ path) =>
      runs.filter((r) => r.profile === profile.id && r.direction === direction && r.path === path);
    const cell = (/** @type {typeof runs} */ list) =>
      `${median(list.map((r) => r.mbit)).toFixed(1)} (${list.map((r) => r.mbit.toFixed(1)).join(', ')})`;
    const cpu = median(of('h2 front').map((r) => r.frontCpuPercent)).toFixed(0);
    rows.push(`| ${profile.id} | ${direction} | ${cell(of('h1 direct'))} | ${cell(of('h2 front'))} | ${cpu} |`);
  }
}
const table = rows.join('\n');
log(`\n${table}`);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `h2-front-ceiling-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
const meta = { startedAt: startedAt.toISOString(), loadBefore, loadAfter: loadavg(), rounds };
writeFileSync(file, `${JSON.stringify({ meta, runs, table }, null, 2)}\n`);
log(`wrote ${file}`);
