// `node bench/accuracy/parallel-iperf.mjs [--profiles "100/100 80ms 0.5%,5/1 200ms 2%"] [--rounds 3] [--streams 1,2]`:
// what one TCP stream and several carry across the same emulated path. The engine ramps from one stream to two or
// more; the bench's truth is one iperf3 stream. Where two streams carry less than one (their queue, their losses),
// an engine that measures with two reads under that truth while it reads the link right. Rounds alternate the stream
// counts, each an iperf3 run of the truth's window (5 s after a 1 s warm-up; 15 s after 2 s at 10 Mbit/s or less).
// Ad hoc (not part of `npm test`); needs root like the bench. Prints a table and writes
// bench/results/accuracy/parallel-iperf-<time>.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { symmetricConditions } from '../lib/link-conditions.mjs';
import { createShapedLink } from '../lib/shaped-link.mjs';
import { parseProfiles } from './profiles.mjs';
import { resultsDir } from './results.mjs';
import { median } from './stats.mjs';
import { iperfBps, iperfWindow } from './truth.mjs';

const { values: args } = parseArgs({
  options: {
    prefix: { type: 'string', default: 'skpariperf' },
    profiles: { type: 'string', default: '100/100 80ms 0.5%' },
    rounds: { type: 'string', default: '3' },
    streams: { type: 'string', default: '1,2' },
  },
});
const log = (/** @type {string} */ line) => process.stdout.write(`${line}\n`);
const rounds = Math.max(1, Number(args.rounds));
const streamCounts = args.streams.split(',').map((s) => Math.max(1, Math.round(Number(s))));
const profiles = parseProfiles(args.profiles);

const startedAt = new Date();
const loadBefore = loadavg();
/** @type {{ profile: string, direction: 'down' | 'up', streams: number, round: number, mbit: number }[]} */
const runs = [];
const link = await createShapedLink({ prefix: args.prefix, downMbit: 100, upMbit: 100, emulator: true });
try {
  for (const profile of profiles) {
    await link.setRates({ downMbit: profile.downMbit, upMbit: profile.upMbit });
    await link.setConditions(symmetricConditions(profile));
    log(`${profile.id}`);
    for (let round = 1; round <= rounds; round++) {
      // Alternate the order so neither count always runs right after the other.
      const order = round % 2 ? streamCounts : [...streamCounts].reverse();
      for (const direction of /** @type {const} */ (['down', 'up'])) {
        const rateMbit = direction === 'down' ? profile.downMbit : profile.upMbit;
        for (const streams of order) {
          const bps = await iperfBps(link, direction, iperfWindow(rateMbit, 5), streams);
          runs.push({ profile: profile.id, direction, streams, round, mbit: bps / 1e6 });
          log(`  round ${round} ${direction.padEnd(4)} ${streams} stream(s): ${(bps / 1e6).toFixed(2)} Mbit/s`);
        }
      }
    }
  }
} finally {
  await link.destroy();
}

const header = `| profile | direction | ${streamCounts.map((n) => `${n} stream(s), median (runs) Mbit/s`).join(' | ')} |`;
const rows = [header, `|---|---|${streamCounts.map(() => '--:').join('|')}|`];
for (const profile of profiles) {
  for (const direction of ['down', 'up']) {
    const cells = streamCounts.map((streams) => {
      const values = runs
        .filter((r) => r.profile === profile.id && r.direction === direction && r.streams === streams)
        .map((r) => r.mbit);
      return `${median(values).toFixed(2)} (${values.map((v) => v.toFixed(1)).join(', ')})`;
    });
    rows.push(`| ${profile.id} | ${direction} | ${cells.join(' | ')} |`);
  }
}
const table = rows.join('\n');
log(`\n${table}`);
mkdirSync(resultsDir, { recursive: true });
const file = join(resultsDir, `parallel-iperf-${startedAt.toISOString().replace(/[:.]/g, '-')}.json`);
const meta = { startedAt: startedAt.toISOString(), loadBefore, loadAfter: loadavg(), rounds, streamCounts };
writeFileSync(file, `${JSON.stringify({ meta, runs, table }, null, 2)}\n`);
log(`wrote ${file}`);
