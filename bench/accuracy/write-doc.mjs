// Writes docs/accuracy.md from saved runs (bench/results/accuracy/<name>.json). The first run is the current state: the
// summary of the issues' goals, the method, then its date, machine, load, truth probes, table and checks in full. Earlier
// runs are indexed at the end, each linking to its own bench/results/accuracy/<name>.md (`runFile`, written with the
// run), so the document stays readable and nothing measured is lost; then the hand-written findings kept in
// bench/accuracy/findings.md (so a rerun refreshes the numbers without losing the analysis).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../scripts/lib/tools.mjs';
import { goodputOfRateBps } from '../lib/line-goodput.mjs';
import { goalSummary } from './report.mjs';
import { resultsDir } from './results.mjs';

/** @typedef {import('./report.mjs').Summary} Summary */
/** @typedef {{ title: string, file: string, meta: any, summaries: Summary[], table: string, checks: { ok: boolean, text: string }[] }} DocRun */

/** Which saved runs the document shows, newest first: written with the document, read when a new run is added. */
const runListFile = join(resultsDir, 'doc-runs.json');

/** The names of the runs the document was last written from, newest first (empty before the first). */
export function documentedRunNames() {
  return existsSync(runListFile) ? /** @type {string[]} */ (JSON.parse(readFileSync(runListFile, 'utf8'))) : [];
}

/** @param {DocRun[]} runs the current run first, then earlier ones */
export function writeAccuracyDoc(runs) {
  const read = (/** @type {string} */ file) => (existsSync(file) ? readFileSync(file, 'utf8').trim() : '');
  const findings = read(join(repoRoot, 'bench', 'accuracy', 'findings.md'));
  const overhead = read(join(resultsDir, 'overhead.md'));
  writeFileSync(join(repoRoot, 'docs', 'accuracy.md'), accuracyDoc(runs, findings, overhead));
  const names = runs.map((run) => run.file);
  writeFileSync(runListFile, `${JSON.stringify(names, null, 2)}\n`);
}

const method = `## Method

- Three network namespaces: server ⇄ router ⇄ client, joined by veth pairs (bench/lib/shaped-link.mjs with
  \`emulator: true\`). In the router, every forwarded packet goes through tools/link-emulator (a TUN device and policy
  routing), which delays it by half the RTT in its direction, adds the jitter (uniform ±J ms, downstream only, never
  reordering) and drops it with the profile's loss rate (independent, the same rate each way). TCP itself sees the
  RTT and the loss: handshakes, slow start, window growth and retransmissions behave as on a real path of that length
  (before 2026-11-24 toxiproxy added the delay to application data only and TCP saw a ~0 ms path). Profiles with
  0 ms and no loss bypass the emulator (the kernel forwards). \`tc tbf\` on the router's egress veths shapes each
  direction (bucket = 10 ms of the rate, at least 32 kbit, since 2026-11-29 10:50 UTC: with 1 ms tbf sent below its
  rate from a full queue while the engines kept the machine busy; queue limit 400 ms), after the delay, so the bottleneck
  queue sits in the middle of the path. Since 2026-11-24 the end hosts' veths have GSO/TSO on (super-packets cross the
  emulator whole; tbf meters each by its wire bytes and cuts those above its bucket into segments) and the router's
  veths have GSO/TSO off, GRO off everywhere, so receivers get the segments tbf let through. Host congestion
  control (BBR) in every namespace; TCP buffers up to 32 MiB.
- Server namespace: \`wrangler dev\` (the real Worker, on a snapshot of the built tree) on the veth address, and since
  2026-11-29 16:00 UTC a TURN relay (coturn), so our engine runs its loss phase across the emulated link and its
  figures put back what losses held back (packages/speedtest/README.md); the loss phase's packets count in *MB moved*.
- Client namespace: Debian Chromium (headless), one fresh browser context per engine run, engines alternating order.
- **Truth**, measured in the same run per profile: download/upload = iperf3 (one TCP stream) receiver bytes over
  seconds (5 s after a 1 s warm-up; 15 s after 2 s on links of 10 Mbit/s or less) across the same emulated path, with
  the same RTT and loss, the best of three runs per direction, at most the link's payload capacity (rate × 1448 /
  1514: what a full TCP segment delivers of the Ethernet frame tbf meters; since 2026-11-26 10:00 UTC, because a
  run can read above it with bytes a loss held back before its window); latency = configured RTT + the measured local
  overhead, i.e. the median of curl zero-byte requests on a kept-alive connection to the same Worker (request sent →
  first byte, server time subtracted as the engines do; 30 before the runs and 20 after each repetition), started at
  most every 20 ms; jitter = expected mean |Δ| of the emulator's draw, 2J/3, + the jitter of 20 paced curl probes
  without added delay. Loaded latency has no independent truth (it is the queue the test itself builds) and is shown
  for comparison.
- *bias %* = (median reported − truth) / truth; *error* = median reported − truth (in the metric's unit);
  *spread %* = (max − min) / median across repetitions; *MB moved* = bytes through the server's veth (both
  directions, headers and retransmissions included) per engine run; *wall s* = time until the engine's final result.
- @cloudflare/speedtest runs its default measurement sequence without the packet-loss step (it needs a TURN server).`;

/**
 * The document's text (pure).
 * @param {DocRun[]} runs the current run first, then earlier ones (indexed, not repeated)
 * @param {string} findings markdown appended under "Findings"
 * @param {string} [overhead] the `--overhead` diagnostic's table, when it was run
 */
export function accuracyDoc(runs, findings, overhead = '') {
  const [current, ...earlier] = runs;
  return `# Speed-test accuracy: our engine vs @cloudflare/speedtest against ground truth

Generated by \`npm run bench:accuracy\` (bench/accuracy/, see its README). The run below is the current state; this
machine is shared, and its load shows in every figure, so each run states its date, machine and load.
${earlier.length ? `${earlier.length === 1 ? 'One earlier run is' : `${earlier.length} earlier runs are`} indexed at the end, each in full in its own file.\n` : ''}
${goalSection(current)}
${method}
${runSection(current, 2)}${overhead ? overheadSection(overhead) : ''}${earlier.length ? earlierSection(earlier) : ''}${findings ? `\n## Findings\n\n${findings}\n` : ''}`;
}

/**
 * Issue 15's goals on the current run: throughput within 1.5 % of truth both ways, in at most half the bytes of
 * @cloudflare/speedtest on the same profile.
 * @param {DocRun} run
 */
function goalSection({ title, summaries }) {
  const { table, checks } = goalSummary(summaries);
  if (checks.length === 0) return '';
  const passed = checks.filter((c) => c.ok).length;
  return `## Summary: ${title}

Our engine (\`speedkit\`) against @cloudflare/speedtest on every profile both ran, from the run in full below.
Bias % = (reported − truth) / truth, truth = iperf3 across the same path; latency and jitter error = reported − truth
in ms (jitter is not one of the issue's goals: the column shows what lost packets do to it); MB moved = bytes through
the server's veth per engine run (both directions), ours against the reference's.

${table}

Issue 15's goals for our engine (throughput within ±1.5 % of truth each way, in at most half the reference's bytes):
${passed} of ${checks.length} met.

${checks.map((c) => `- ${c.ok ? 'met' : '**missed**'}: ${c.text}`).join('\n')}
`;
}

/** @param {DocRun[]} runs */
function earlierSection(runs) {
  const load = (/** @type {number[]} */ l) => l.map((v) => v.toFixed(1)).join(' → ');
  const rows = runs.map(({ title, file, meta, summaries }) => {
    const engines = [...new Set(summaries.map((s) => s.engine))].join(', ');
    return (
      `| [${title}](../bench/results/accuracy/${file}.md) | ${meta.startedAt.slice(0, 16).replace('T', ' ')} | ` +
      `${meta.profiles.length} | ${engines} | ${meta.repetitions} | ` +
      `${load([meta.machine.loadBefore[0], meta.machine.loadAfter[0]])} |`
    );
  });
  return `
## Earlier runs

Newest first; each link opens the run in full (truth probes, table, checks) as this document showed it, and its raw
rows are beside it (\`.json\`, \`.csv\`). The findings below refer to them by title.

| run | started (UTC) | profiles | engines | repetitions | load (1 min) before → after |
|---|---|--:|---|--:|--:|
${rows.join('\n')}
`;
}

/** @param {string} table */
function overheadSection(table) {
  return `
## Where the local latency overhead comes from

Measured on 2026-11-22, before the link emulator, with toxiproxy still between the browser and wrangler dev (rerun
\`--overhead\` to refresh it for the emulated path).
\`npm run bench:accuracy -- --overhead\` (bench/accuracy/overhead.mjs), 200/50 Mbit/s with no added delay: zero-byte
requests timed by curl (request sent → first byte) and by a plain \`fetch\` loop in Chromium (resource timing
responseStart − requestStart, no engine involved), against the Worker path and against a trivial Node server on the
same link. curl's gap is its start-to-start spacing (\`--rate\`), the fetch loop's the idle time after each response.
Raw rows: bench/results/accuracy/overhead.json.

${table}
`;
}

/**
 * A run's own file (`<name>.md` beside its JSON): the run in full, as the document shows its current run (pure).
 * @param {DocRun} run
 * @param {string} [rawPath] where its `.json` and `.csv` are, from the repository root, without the extension
 */
export function runFile(run, rawPath) {
  return `${runSection(run, 1, rawPath).trim()}\n`;
}

/**
 * One run in full, its title at heading `level` (2 inside the document, 1 in the run's own file).
 * @param {DocRun} run
 * @param {number} level
 * @param {string} [rawPath] see `runFile`
 */
function runSection({ title, file, meta, table, checks }, level, rawPath = `bench/results/accuracy/${file}`) {
  const heading = '#'.repeat(level);
  const load = (/** @type {number[]} */ l) => l.map((v) => v.toFixed(2)).join(' / ');
  const goodput = (/** @type {number | undefined} */ mbit) =>
    mbit === undefined ? 'n/a' : (goodputOfRateBps(mbit) / 1e6).toFixed(1);
  // In profile order (the run measured gigabit first).
  const probes = meta.profiles
    .filter((/** @type {{ id: string }} */ profile) => meta.probes[profile.id])
    .map((/** @type {{ id: string, downMbit: number, upMbit: number }} */ profile) => {
      const id = profile.id;
      const p = meta.probes[id];
      return (
        `| ${id} | ${p.iperfDownMbit.toFixed(1)} / ${p.iperfUpMbit.toFixed(1)} | ` +
        `${goodput(profile?.downMbit)} / ${goodput(profile?.upMbit)} | ${p.idleLatencyMs.toFixed(2)} | ` +
        `${p.curlLatencyMs.toFixed(2)} | ${p.overheadMs.toFixed(2)} | ${p.curlJitterMs.toFixed(2)} |`
      );
    })
    .join('\n');
  const errors = meta.errors.map((/** @type {any} */ e) => `- ${e.profile} ${e.engine} #${e.repetition}: ${e.error}`);
  return `
${heading} ${title}

Started ${meta.startedAt}, took ${Math.round(meta.durationS / 60)} min, ${meta.repetitions} repetitions per profile and engine.
Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, Linux ${meta.machine.kernel}.
Load average (1/5/15 min): ${load(meta.machine.loadBefore)} before, ${load(meta.machine.loadAfter)} after.
Raw rows: ${rawPath}.{json,csv}.

#${heading} Truth probes

| profile | iperf3 down / up Mbit/s (truth) | rate × 1448/1514 Mbit/s | curl RTT, no delay ms | curl RTT = latency truth ms | local overhead ms | curl jitter ms |
|---|--:|--:|--:|--:|--:|--:|
${probes}

#${heading} Results

${table}

#${heading} Issue 4 checks for our engine (each with its limit)

${checks.map((c) => `- ${c.ok ? 'pass' : '**FAIL**'}: ${c.text}`).join('\n')}
${errors.length ? `\nEngine runs that did not finish:\n\n${errors.join('\n')}\n` : ''}`;
}
