// Pure: long main-thread tasks of one page from a Chromium trace (CDP Tracing, JSON "traceEvents"), each split into
// the time its JavaScript samples spent in our bundle, in Chart.js and in everything else (layout, style, paint, GC,
// the browser's own work, idle gaps of the sampler). Attribution is by the script URL of the innermost sampled frame
// that has one, so a busy machine can make a task longer but never moves it from one owner to another.

/** Who a long task belongs to. */
export const owners = /** @type {const} */ (['ours', 'chartjs', 'other']);

/** Main-thread tasks longer than this count as long (the RAIL / Long Tasks API threshold, ms). */
export const longTaskMs = 50;

/** Trace events that only wrap a task (the scheduler's), not work of their own. */
const wrapperEvents = new Set(['RunTask', 'ThreadControllerImpl::RunTask', 'ThreadPool_RunTask']);

/** Sampled "frames" that are the VM itself, never a script's. */
const vmFrames = new Set(['(garbage collector)', '(program)', '(idle)', '(root)']);

/**
 * @typedef {{ name: string, ph: string, pid: number, tid: number, ts: number, dur?: number, tdur?: number, id?: string,
 *   args?: Record<string, any> }} TraceEvent
 * @typedef {{ startMs: number, durationMs: number, oursMs: number, chartjsMs: number, otherMs: number,
 *   owner: (typeof owners)[number], topScript: string, topEvents: string, cpuMs: number, oursCpuMs: number,
 *   chartjsCpuMs: number }} LongTask
 */

/**
 * Which owner a script URL belongs to. `chartUrl` tells the Chart.js chunk apart (its file name); everything else
 * served by `origin` is ours; any other URL (extensions, the browser's own scripts) is other.
 * @param {string} url @param {string} origin @param {RegExp} chartUrl @returns {(typeof owners)[number]}
 */
export function ownerOfUrl(url, origin, chartUrl) {
  if (!url.startsWith(origin)) return 'other';
  return chartUrl.test(url) ? 'chartjs' : 'ours';
}

/**
 * The page's renderer main thread: the `CrRendererMain` thread whose events mention the page's origin most often.
 * @param {TraceEvent[]} events @param {string} origin @returns {{ pid: number, tid: number } | null}
 */
export function pageMainThread(events, origin) {
  /** @type {Map<string, number>} */
  const mainThreads = new Map();
  for (const event of events) {
    if (event.ph === 'M' && event.name === 'thread_name' && event.args?.name === 'CrRendererMain') {
      mainThreads.set(`${event.pid}:${event.tid}`, 0);
    }
  }
  for (const event of events) {
    const key = `${event.pid}:${event.tid}`;
    const url = event.args?.data?.url;
    if (mainThreads.has(key) && typeof url === 'string' && url.startsWith(origin)) {
      mainThreads.set(key, (mainThreads.get(key) ?? 0) + 1);
    }
  }
  const best = [...mainThreads].sort((a, b) => b[1] - a[1])[0];
  if (!best || best[1] === 0) return null;
  const [pid, tid] = best[0].split(':').map(Number);
  return { pid: /** @type {number} */ (pid), tid: /** @type {number} */ (tid) };
}

/**
 * The CPU profiler's samples on one thread, as `{ tsUs, url, functionName }` of the innermost frame with a URL
 * (or the VM frame), in time order. Chromium writes one `Profile` event per thread and `ProfileChunk`s with the
 * same id: new call-tree nodes, the sampled node ids and the time deltas between samples (µs).
 * @param {TraceEvent[]} events @param {{ pid: number, tid: number }} thread
 */
export function threadSamples(events, thread) {
  const profile = events.find(
    (event) => event.name === 'Profile' && event.pid === thread.pid && event.tid === thread.tid,
  );
  if (!profile) return [];
  /** @type {Map<number, { url: string, functionName: string, parent: number | undefined }>} */
  const nodes = new Map();
  /** @type {{ tsUs: number, url: string, functionName: string }[]} */
  const samples = [];
  let tsUs = Number(profile.args?.data?.startTime ?? profile.ts);
  for (const event of events) {
    if (event.name !== 'ProfileChunk' || event.pid !== thread.pid || event.id !== profile.id) continue;
    const data = event.args?.data ?? {};
    for (const node of data.cpuProfile?.nodes ?? []) {
      nodes.set(node.id, {
        url: node.callFrame?.url ?? '',
        functionName: node.callFrame?.functionName ?? '',
        parent: node.parent,
      });
    }
    const ids = data.cpuProfile?.samples ?? [];
    const deltas = data.timeDeltas ?? [];
    for (let index = 0; index < ids.length; index++) {
      tsUs += deltas[index] ?? 0;
      samples.push({ tsUs, ...innermostScript(nodes, ids[index]) });
    }
  }
  return samples.sort((a, b) => a.tsUs - b.tsUs);
}

/**
 * @param {Map<number, { url: string, functionName: string, parent: number | undefined }>} nodes
 * @param {number} id
 */
function innermostScript(nodes, id) {
  const leaf = nodes.get(id);
  if (!leaf) return { url: '', functionName: '' };
  if (vmFrames.has(leaf.functionName)) return { url: '', functionName: leaf.functionName };
  // Builtins (Math.max, JSON.parse, typed-array fills) have no URL: their time is their caller's.
  /** @type {{ url: string, functionName: string, parent: number | undefined } | undefined} */
  let node = leaf;
  for (; node; node = node.parent === undefined ? undefined : nodes.get(node.parent)) {
    if (node.url) return { url: node.url, functionName: node.functionName };
  }
  return { url: '', functionName: leaf.functionName };
}

/**
 * Every task on the page's main thread longer than `longTaskMs`, with its time split by owner. A sample stands for
 * the time until the next sample (clipped to the task); the rest of the task is "other".
 * @param {TraceEvent[]} events @param {{ origin: string, chartUrl: RegExp, minMs?: number }} options
 * @returns {LongTask[]}
 */
export function longTasks(events, { origin, chartUrl, minMs = longTaskMs }) {
  const thread = pageMainThread(events, origin);
  if (!thread) return [];
  const samples = threadSamples(events, thread);
  const onThread = (/** @type {TraceEvent} */ event) =>
    event.ph === 'X' && event.pid === thread.pid && event.tid === thread.tid;
  const tasks = events
    .filter((event) => onThread(event) && event.name === 'RunTask' && (event.dur ?? 0) > minMs * 1000)
    .sort((a, b) => a.ts - b.ts);
  const threadEvents = events
    .filter((event) => onThread(event) && !wrapperEvents.has(event.name))
    .sort((a, b) => a.ts - b.ts);
  let firstTs = Number.POSITIVE_INFINITY;
  for (const event of events) if (event.ts > 0 && event.ts < firstTs) firstTs = event.ts;
  // Tasks come in time order, so both scans resume where the previous task's began.
  const sampleCursor = { index: 0 };
  const eventCursor = { index: 0 };
  return tasks.map((task) => {
    const shares = sampleShares(samples, task, sampleCursor, origin, chartUrl);
    const durationMs = (task.dur ?? 0) / 1000;
    // The thread's own CPU clock: what the task cost, whatever else ran on the machine meanwhile. Shared out by the
    // owners' shares of the samples taken during the task (the sampler itself starves on a busy machine, so its
    // counts are a ratio, not a duration).
    const cpuMs = task.tdur === undefined ? durationMs : task.tdur / 1000;
    const oursMs = shares.byOwner.ours / 1000;
    const chartjsMs = shares.byOwner.chartjs / 1000;
    const otherMs = Math.max(0, durationMs - oursMs - chartjsMs);
    const owner = oursMs >= chartjsMs && oursMs >= otherMs ? 'ours' : chartjsMs >= otherMs ? 'chartjs' : 'other';
    const { samplesOf } = shares;
    return {
      startMs: (task.ts - firstTs) / 1000,
      durationMs,
      oursMs,
      chartjsMs,
      otherMs,
      owner,
      topScript: [...shares.byScript].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '',
      topEvents: topChildEvents(threadEvents, task, eventCursor),
      cpuMs,
      oursCpuMs: samplesOf.all > 0 ? (cpuMs * samplesOf.ours) / samplesOf.all : 0,
      chartjsCpuMs: samplesOf.all > 0 ? (cpuMs * samplesOf.chartjs) / samplesOf.all : 0,
    };
  });
}

/**
 * The task's CPU samples by owner: time (µs, each sample standing until the next, clipped to the task), sample
 * counts, and time per script and function.
 * @param {{ tsUs: number, url: string, functionName: string }[]} samples
 * @param {TraceEvent} task @param {{ index: number }} cursor @param {string} origin @param {RegExp} chartUrl
 */
function sampleShares(samples, task, cursor, origin, chartUrl) {
  const endUs = task.ts + (task.dur ?? 0);
  const byOwner = { ours: 0, chartjs: 0, other: 0 };
  const samplesOf = { ours: 0, chartjs: 0, other: 0, all: 0 };
  /** @type {Map<string, number>} */
  const byScript = new Map();
  while (cursor.index < samples.length && (samples[cursor.index]?.tsUs ?? 0) < task.ts) cursor.index++;
  for (let index = cursor.index; index < samples.length; index++) {
    const sample = /** @type {{ tsUs: number, url: string, functionName: string }} */ (samples[index]);
    if (sample.tsUs >= endUs) break;
    const nextUs = Math.min(samples[index + 1]?.tsUs ?? endUs, endUs);
    const owner = sample.url ? ownerOfUrl(sample.url, origin, chartUrl) : 'other';
    samplesOf.all++;
    if (owner === 'other') continue;
    byOwner[owner] += nextUs - sample.tsUs;
    samplesOf[owner]++;
    const script = `${sample.url.slice(sample.url.lastIndexOf('/') + 1)} ${sample.functionName || '(anonymous)'}`;
    byScript.set(script, (byScript.get(script) ?? 0) + nextUs - sample.tsUs);
  }
  return { byOwner, samplesOf, byScript };
}

/**
 * What the task did, from the trace's own events: its direct children (not nested in another child) by name, the
 * three longest as "name ms".
 * @param {TraceEvent[]} threadEvents @param {TraceEvent} task @param {{ index: number }} cursor
 */
function topChildEvents(threadEvents, task, cursor) {
  const endUs = task.ts + (task.dur ?? 0);
  /** @type {Map<string, number>} */
  const byEvent = new Map();
  while (cursor.index < threadEvents.length && (threadEvents[cursor.index]?.ts ?? 0) < task.ts) cursor.index++;
  let coveredUntilUs = task.ts;
  for (let index = cursor.index; index < threadEvents.length; index++) {
    const child = /** @type {TraceEvent} */ (threadEvents[index]);
    if (child.ts >= endUs) break;
    if (child.ts < coveredUntilUs) continue;
    coveredUntilUs = child.ts + (child.dur ?? 0);
    byEvent.set(child.name, (byEvent.get(child.name) ?? 0) + (child.dur ?? 0));
  }
  return [...byEvent]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([name, us]) => `${name} ${Math.round(us / 1000)}`)
    .join(', ');
}

/**
 * Count and longest task per owner, and the most JavaScript time of each owner in any one task (ms).
 * @param {LongTask[]} tasks
 */
export function summarizeTasks(tasks) {
  return Object.fromEntries(
    owners.map((owner) => {
      const own = tasks.filter((task) => task.owner === owner);
      const key = owner === 'ours' ? 'oursMs' : owner === 'chartjs' ? 'chartjsMs' : 'otherMs';
      /** @param {LongTask} task */
      const cpuOf = (task) =>
        owner === 'ours'
          ? task.oursCpuMs
          : owner === 'chartjs'
            ? task.chartjsCpuMs
            : task.cpuMs - task.oursCpuMs - task.chartjsCpuMs;
      return [
        owner,
        {
          count: own.length,
          maxMs: own.length > 0 ? Math.max(...own.map((task) => task.durationMs)) : 0,
          maxShareMs: tasks.length > 0 ? Math.max(...tasks.map((task) => task[key])) : 0,
          maxCpuMs: tasks.length > 0 ? Math.max(0, ...tasks.map(cpuOf).filter(Number.isFinite)) : 0,
        },
      ];
    }),
  );
}
