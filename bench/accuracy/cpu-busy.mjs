// How busy the machine's CPUs are while an engine runs: the browser, wrangler dev, workerd and the link emulator all
// share them (2 cores here), so a run's figure is read beside this. Linux /proc/stat, sampled every 250 ms; the
// share of all CPUs' time not idle or waiting for I/O, in percent. Elsewhere (no /proc/stat) it reports nothing.
import { readFileSync } from 'node:fs';

const sampleEveryMs = 250;

/** Total and idle jiffies of all CPUs together, or null where /proc/stat cannot be read. */
function cpuTimes() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]?.trim().split(/\s+/).slice(1).map(Number);
    if (!fields || fields.length < 5 || fields.some((value) => !Number.isFinite(value))) return null;
    const total = fields.reduce((sum, value) => sum + value, 0);
    // idle + iowait
    return { total, idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
  } catch {
    return null;
  }
}

/**
 * Busy share (%) between two readings (pure), or NaN when no time passed.
 * @param {{ total: number, idle: number }} before
 * @param {{ total: number, idle: number }} after
 */
export function busyPercent(before, after) {
  const total = after.total - before.total;
  if (!(total > 0)) return Number.NaN;
  return 100 * (1 - (after.idle - before.idle) / total);
}

/**
 * Starts sampling; `stop()` returns the mean over the whole span and the busiest 250 ms sample (percent), the
 * samples themselves (ms since the start, percent) and the start's wall-clock time (ms since the epoch, to line the
 * samples up with an engine result's `startedAt`). Both percentages NaN where /proc/stat cannot be read.
 */
export function startCpuBusy() {
  const first = cpuTimes();
  const startedAtMs = Date.now();
  const startedMs = performance.now();
  /** @type {{ atMs: number, percent: number }[]} */
  const samples = [];
  let last = first;
  const timer = setInterval(() => {
    const now = cpuTimes();
    if (last && now) samples.push({ atMs: Math.round(performance.now() - startedMs), percent: busyPercent(last, now) });
    last = now;
  }, sampleEveryMs);
  return {
    stop() {
      clearInterval(timer);
      const end = cpuTimes();
      const meanPercent = first && end ? busyPercent(first, end) : Number.NaN;
      const finite = samples.map((s) => s.percent).filter(Number.isFinite);
      const maxPercent = finite.length > 0 ? Math.max(...finite) : Number.NaN;
      return { meanPercent, maxPercent, startedAtMs, samples };
    },
  };
}

// /proc/<pid>/stat counts CPU time in USER_HZ ticks, which Linux fixes at 100 per second for user space.
const ticksPerSecond = 100;

/**
 * User + system CPU ticks of one process from its /proc/<pid>/stat line (pure), or NaN when the line does not parse.
 * The command name (field 2, in parentheses) may hold spaces, so fields are counted after its closing parenthesis:
 * utime and stime are fields 14 and 15 of the line.
 * @param {string} statLine
 */
export function processCpuTicks(statLine) {
  const fields = statLine
    .slice(statLine.lastIndexOf(')') + 2)
    .trim()
    .split(/\s+/);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return Number.isFinite(ticks) ? ticks : Number.NaN;
}

/** @param {number} pid */
function readProcessTicks(pid) {
  try {
    return processCpuTicks(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return Number.NaN;
  }
}

/**
 * How much of one core a process (`--front h2`: the HTTP/2 front) used while an engine ran: `stop()` returns the
 * mean over the whole span and the busiest 250 ms sample, in percent of one core (100 = a core saturated, the point
 * where the process itself would limit throughput). NaN where /proc cannot be read.
 * @param {number} pid
 */
export function startProcessCpu(pid) {
  const startedMs = performance.now();
  const firstTicks = readProcessTicks(pid);
  let last = { ticks: firstTicks, atMs: startedMs };
  let maxPercent = Number.NaN;
  const percentOf = (/** @type {number} */ ticks, /** @type {number} */ ms) =>
    (100 * (ticks / ticksPerSecond)) / (ms / 1000);
  const timer = setInterval(() => {
    const now = { ticks: readProcessTicks(pid), atMs: performance.now() };
    const percent = percentOf(now.ticks - last.ticks, now.atMs - last.atMs);
    if (Number.isFinite(percent) && !(percent <= maxPercent)) maxPercent = percent;
    last = now;
  }, sampleEveryMs);
  return {
    stop() {
      clearInterval(timer);
      const meanPercent = percentOf(readProcessTicks(pid) - firstTicks, performance.now() - startedMs);
      return { meanPercent, maxPercent };
    },
  };
}
