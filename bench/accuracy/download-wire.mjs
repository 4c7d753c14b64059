// The download's wire beside what the page read, for a run of the accuracy bench (ad hoc, like upload-diag.mjs).
//
// `node bench/accuracy/download-wire.mjs --record DIR [--prefix skacc]`, started beside a bench run with the same
// `--prefix`: waits for the lab's router namespace, then polls the downstream shaper (tbf on the router's veth towards
// the client, after the emulator's delay and loss, so what it sends reaches the client's kernel at once) until the
// namespace goes: its device's transmitted bytes every 10 ms (read from /proc/PID/net/dev of a process in the namespace,
// no process started per poll) and `tc -s qdisc` (bytes sent, drops, backlog) every 50 ms, into DIR/wire-down.tsv.
//
// `node bench/accuracy/download-wire.mjs --wire DIR FILE.json…`: for each of our engine's runs saved with `--samples`
// in the recording's minutes, the download figure's window (located in the run's intervals), what the page read in it
// and what the wire carried then (payload-equivalent: transmitted bytes × 1448/1514, what a full segment delivers of
// the frame tbf meters), per interval; the receive path's backlog at each interval's end (wire bytes since the phase's
// first interval less the page's: bytes a loss holds back in the client's kernel, or the browser has not handed over
// yet) and the shaper's backlog per interval. The page clock is placed on the epoch by the result's `startedAt` (taken
// at the test's origin).
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { linkNames } from '../lib/link-topology.mjs';
import {
  downloadWindow,
  parseWire,
  receivePathBacklog,
  routerTxBytes,
  shaperBacklog,
  windowOnWire,
  wireRateBps,
} from './wire-series.mjs';

const run = promisify(execFile);
const { values: args, positionals: files } = parseArgs({
  allowPositionals: true,
  options: {
    record: { type: 'string' },
    prefix: { type: 'string', default: 'skacc' },
    wire: { type: 'string' },
  },
});

if (args.record) await record(args.record, args.prefix ?? 'skacc');
else if (args.wire) analyse(args.wire, files);
else {
  console.error('usage: download-wire.mjs --record DIR [--prefix P] | --wire DIR FILE.json…');
  process.exit(2);
}

/** Polls the router's downstream shaper until the namespace goes. @param {string} dir @param {string} prefix */
async function record(dir, prefix) {
  const names = linkNames(prefix);
  const nsPath = `/run/netns/${names.routerNs}`;
  const out = join(dir, 'wire-down.tsv');
  mkdirSync(dir, { recursive: true });
  writeFileSync(out, '');
  const sleep = (/** @type {number} */ ms) => new Promise((done) => setTimeout(done, ms));
  // Bounded wait for the bench to build the link (it may wait for a lock first).
  for (let tries = 0; !existsSync(nsPath); tries++) {
    if (tries > 7200) throw new Error(`${names.routerNs} did not appear within an hour`);
    await sleep(500);
  }
  let pid = '';
  let lastTcMs = 0;
  while (existsSync(nsPath)) {
    if (!pid || !existsSync(`/proc/${pid}`)) {
      const { stdout } = await run('ip', ['netns', 'pids', names.routerNs]).catch(() => ({ stdout: '' }));
      pid = stdout.split('\n').find((line) => line.trim() !== '') ?? '';
      if (!pid) {
        await sleep(100);
        continue;
      }
    }
    const nowMs = Date.now();
    try {
      const txBytes = routerTxBytes(readFileSync(`/proc/${pid}/net/dev`, 'utf8')).down;
      if (Number.isFinite(txBytes)) appendFileSync(out, `dev\t${nowMs}\t${txBytes}\n`);
    } catch {
      pid = '';
    }
    if (nowMs - lastTcMs >= 50) {
      lastTcMs = nowMs;
      const tc = await run('ip', [
        'netns',
        'exec',
        names.routerNs,
        'tc',
        '-s',
        'qdisc',
        'show',
        'dev',
        names.routerClientDev,
      ]).catch(() => ({ stdout: '' }));
      if (tc.stdout) appendFileSync(out, `tbf\t${nowMs}\t${tc.stdout.replace(/\s+/g, ' ')}\n`);
    }
    await sleep(10);
  }
}

/** @param {string} dir @param {string[]} sampleFiles */
function analyse(dir, sampleFiles) {
  const wire = parseWire(readFileSync(join(dir, 'wire-down.tsv'), 'utf8'));
  const mbit = (/** @type {number} */ bps) => (Number.isFinite(bps) ? (bps / 1e6).toFixed(1) : '-');
  for (const file of sampleFiles) {
    const raw = JSON.parse(readFileSync(file, 'utf8'));
    const originMs = Date.parse(raw.startedAt);
    const window = downloadWindow(raw);
    const name = file.split('/').at(-1);
    if (!window) {
      console.log(`${name}: no download window found in its intervals`);
      continue;
    }
    const { intervals, intervalMs, start, end } = window;
    const onWire = windowOnWire(raw, 'download', wire.dev);
    if (!onWire) {
      console.log(`${name}: the recording does not cover this run`);
      continue;
    }
    const { pageBps: page, wireBps: windowWire } = onWire;
    const backlog = receivePathBacklog(wire.dev, intervals, originMs, intervalMs);
    const queue = shaperBacklog(wire.tbf, intervals, originMs, intervalMs);
    const mark = (/** @type {string[]} */ values) =>
      values.map((value, index) => `${index === start ? '[' : ''}${value}${index === end - 1 ? ']' : ''}`).join(' ');
    console.log(
      `${name}: figure ${mbit(raw.download.bitsPerSecond.value)} Mbit/s, window intervals ${start}–${end - 1} ` +
        `(${(end - start) * intervalMs} ms, second stream from ${intervals.findIndex((i) => i.streams > 1)}): ` +
        `page ${mbit(page)}, wire ${mbit(windowWire)} Mbit/s (${(((page - windowWire) / windowWire) * 100).toFixed(1)} %)`,
    );
    console.log(`  page Mbit/s  ${mark(intervals.map((i) => mbit(i.bitsPerSecond)))}`);
    console.log(
      `  wire Mbit/s  ${mark(intervals.map((i) => mbit(wireRateBps(wire.dev, originMs + i.startMs, originMs + i.startMs + intervalMs))))}`,
    );
    console.log(`  backlog MB   ${mark(backlog.map((bytes) => (bytes / 1e6).toFixed(2)))}`);
    console.log(
      `  tbf queue kB ${mark(queue.map((bytes) => (Number.isFinite(bytes) ? (bytes / 1e3).toFixed(0) : '-')))}`,
    );
  }
}
