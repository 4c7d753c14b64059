// One profile of the testbed: shape the link, measure truth (iperf3, HTTP RTT probes), then run every engine
// `repetitions` times in alternating order, recording each reported metric beside its truth, wire bytes and wall time.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCpuBusy, startProcessCpu } from './cpu-busy.mjs';
import { expectedJitterMs } from './profiles.mjs';
import { throughputDirection, wireMetrics } from './report.mjs';
import { lineGoodputBps, meanAbsoluteDelta, median, throughputTruthBps, truthLooksStarved } from './stats.mjs';
import { curlRtts, iperfBps, iperfWindow, wireBytes } from './truth.mjs';
import { startWireMeter } from './wire-meter.mjs';
import { thinSeries, windowOnWire } from './wire-series.mjs';

/** @typedef {import('./profiles.mjs').Profile} Profile */

const iperfRuns = 3;
/** @typedef {import('./engines.mjs').Engine} Engine */
/** @typedef {{ profile: string, engine: string, repetition: number, metric: string, reported: number, truth: number, bytes: number, wallMs: number }} Row */

/**
 * @typedef {object} Context
 * @property {Awaited<ReturnType<typeof import('../lib/shaped-link.mjs').createShapedLink>>} link
 * @property {Awaited<ReturnType<typeof import('./server.mjs').startServer>>} server
 * @property {import('@playwright/test').Browser} browser
 * @property {Engine[]} engines
 */
/** @typedef {{ repetitions: number, repetitionsOf?: (engine: string) => number, retriesOf?: (engine: string) => boolean, iperfSeconds: number, engineTimeoutMs: number, log: (line: string) => void, samplesDir?: string }} Options */

/**
 * Truth for one profile before any engine runs: idle jitter of the path itself (no added delay, after a warm-up that
 * absorbs first-request costs), then the HTTP RTT with the profile's conditions: configured RTT + local overhead
 * (wrangler dev, the emulator's wake-ups, wake-ups of an idle server path) as measured, and iperf3 both ways.
 * @param {Context} context
 * @param {Profile} profile
 * @param {Options} options
 */
async function measureTruth({ link, server }, profile, options) {
  const { log } = options;
  await server.setDelay({ rttMs: 0 });
  await curlRtts(link, server.origin, 10);
  const idleRtts = await curlRtts(link, server.origin, 20);
  await server.setDelay(profile);
  const delayedRtts = await curlRtts(link, server.origin, 30);
  const overheadMs = median(delayedRtts) - profile.rttMs;
  const down = await iperfTruth(link, 'down', profile.downMbit, options.iperfSeconds);
  const up = await iperfTruth(link, 'up', profile.upMbit, options.iperfSeconds);
  const downBps = down.bps;
  const upBps = up.bps;
  const truth = {
    download: downBps,
    upload: upBps,
    latency: median(delayedRtts),
    jitter: expectedJitterMs(profile.jitterMs) + meanAbsoluteDelta(idleRtts),
    downLoadedLatency: Number.NaN,
    upLoadedLatency: Number.NaN,
  };
  const probe = {
    overheadMs,
    idleLatencyMs: median(idleRtts),
    curlLatencyMs: median(delayedRtts),
    curlJitterMs: meanAbsoluteDelta(delayedRtts),
    iperfDownMbit: downBps / 1e6,
    iperfUpMbit: upBps / 1e6,
    iperfDownRunsMbit: down.runs.map((bps) => bps / 1e6),
    iperfUpRunsMbit: up.runs.map((bps) => bps / 1e6),
  };
  log(
    `  truth: iperf3 ${fmt(probe.iperfDownMbit)}/${fmt(probe.iperfUpMbit)} Mbit/s ` +
      `(runs ${probe.iperfDownRunsMbit.map((v) => fmt(v, 2)).join(' ')} / ${probe.iperfUpRunsMbit.map((v) => fmt(v, 2)).join(' ')}), overhead ${fmt(overheadMs, 2)} ms, ` +
      `curl RTT ${fmt(probe.curlLatencyMs, 2)} ms (idle ${fmt(probe.idleLatencyMs, 2)}), jitter ${fmt(probe.curlJitterMs, 2)} ms`,
  );
  return { truth, probe, delayedRtts };
}

/**
 * Three iperf3 runs of one direction; truth = the best, at most the link's payload capacity (see throughputTruthBps).
 * @param {Context['link']} link
 * @param {'down' | 'up'} direction
 * @param {number} rateMbit
 * @param {number} seconds
 * @param {number[]} [earlierRuns] runs of the same direction measured before (bits/s), which count too
 */
async function iperfTruth(link, direction, rateMbit, seconds, earlierRuns = []) {
  const runs = [...earlierRuns];
  for (let run = 0; run < iperfRuns; run++) runs.push(await iperfBps(link, direction, iperfWindow(rateMbit, seconds)));
  return { bps: throughputTruthBps(runs, lineGoodputBps(rateMbit)), runs };
}

/**
 * One engine run in a fresh browser context: its rows (each metric beside its truth, wire bytes, wall time), or the
 * error it failed with.
 * @param {Context} context
 * @param {Engine} engine
 * @param {Profile} profile
 * @param {Awaited<ReturnType<typeof measureTruth>>['truth']} truth
 * @param {number} repetition
 * @param {Options} options
 * @returns {Promise<{ rows: Row[], error?: { engine: string, repetition: number, error: string } }>}
 */
async function runEngine({ link, server, browser }, engine, profile, truth, repetition, options) {
  const { log } = options;
  /** @type {Row[]} */
  const rows = [];
  // `--front h2` serves a self-signed certificate (bench/lib/self-signed-cert.mjs), accepted as the other labs do.
  const context = await browser.newContext(server.origin.startsWith('https:') ? { ignoreHTTPSErrors: true } : {});
  const page = await context.newPage();
  const before = await wireBytes(link);
  const startMs = performance.now();
  const cpu = startCpuBusy();
  const wire = startWireMeter(link.emulatorPid);
  // The HTTP/2 front's own CPU (% of one core): near 100 it would be the bottleneck rather than the path.
  const frontCpu = server.frontPid !== undefined ? startProcessCpu(server.frontPid) : undefined;
  try {
    const result = await engine.run(page, server.origin, options.engineTimeoutMs);
    const wallMs = performance.now() - startMs;
    const busy = cpu.stop();
    const series = wire.stop();
    const front = frontCpu?.stop();
    const after = await wireBytes(link);
    const bytes = after.txBytes - before.txBytes + (after.rxBytes - before.rxBytes);
    const reported = {
      download: result.downloadBps,
      upload: result.uploadBps,
      latency: result.latencyMs,
      jitter: result.jitterMs,
      downLoadedLatency: result.downLoadedLatencyMs,
      upLoadedLatency: result.upLoadedLatencyMs,
    };
    /** @param {string} metric @param {number} value @param {number} truthValue */
    const addRow = (metric, value, truthValue) =>
      rows.push({
        profile: profile.id,
        engine: engine.name,
        repetition,
        metric,
        reported: value,
        bytes,
        wallMs,
        truth: truthValue,
      });
    for (const [metric, value] of Object.entries(reported)) {
      addRow(metric, value, truth[/** @type {keyof typeof truth} */ (metric)]);
    }
    // Our engine's figure windows on the wire: what the link carried in them, against the same truth (wire-meter.mjs).
    const onWire = {
      download: windowOnWire(result.raw, 'download', series.down),
      upload: windowOnWire(result.raw, 'upload', series.up),
    };
    for (const direction of /** @type {const} */ (['download', 'upload'])) {
      const measured = onWire[direction];
      if (measured) addRow(wireMetrics[direction], measured.wireBps, truth[direction]);
    }
    log(
      `  #${repetition} ${engine.name.padEnd(22)} ${fmt(result.downloadBps / 1e6)}/${fmt(result.uploadBps / 1e6)} Mbit/s, ` +
        `${fmt(result.latencyMs, 2)} ms, jitter ${fmt(result.jitterMs, 2)} ms, ${fmt(bytes / 1e6, 0)} MB, ${fmt(wallMs / 1000)} s, ` +
        `CPU ${fmt(busy.meanPercent, 0)} % (max ${fmt(busy.maxPercent, 0)} %)` +
        (front ? `, front ${fmt(front.meanPercent, 0)} % of a core (max ${fmt(front.maxPercent, 0)} %)` : '') +
        (result.detail ? ` (${result.detail})` : ''),
    );
    if (onWire.download || onWire.upload) log(`     ${wireLine(onWire)}`);
    if (options.samplesDir && result.raw) {
      // `--samples`: the engine's whole result (every request and interval), to diagnose where an error comes from.
      mkdirSync(options.samplesDir, { recursive: true });
      const file = `${profile.id.replace(/[^\w.]+/g, '_')}-${engine.name}-${repetition}.json`;
      // The run's CPU samples ride along (% of all CPUs busy, from the engine run's start: its page setup, and for the
      // `speedkit-direct` engines its esbuild bundle, come first), beside the engine's own, and so does the wire.
      writeFileSync(
        join(options.samplesDir, file),
        JSON.stringify({
          ...result.raw,
          cpuBusy: busy,
          ...(front ? { frontCpu: front } : {}),
          // The router's byte counters both ways at 200 ms, for where a run's bytes went (phase-bytes.mjs).
          wire: { down: thinSeries(series.down, 200), up: thinSeries(series.up, 200) },
        }),
      );
    }
    return { rows };
  } catch (error) {
    cpu.stop();
    wire.stop();
    frontCpu?.stop();
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    log(`  #${repetition} ${engine.name.padEnd(22)} FAILED: ${message}`);
    const serverLog = server.log().trim();
    if (serverLog) log(`  wrangler dev said:\n${serverLog.split('\n').slice(-15).join('\n')}`);
    return { rows, error: { engine: engine.name, repetition, error: message } };
  } finally {
    await context.close();
  }
}

/**
 * @param {Context} context
 * @param {Profile} profile
 * @param {Options} options
 */
export async function measureProfile(context, profile, options) {
  const { link, server, engines } = context;
  await link.setRates({ downMbit: profile.downMbit, upMbit: profile.upMbit, queueMs: profile.queueMs });
  const { truth, probe, delayedRtts } = await measureTruth(context, profile, options);

  /** @type {Row[]} */
  const rows = [];
  /** @type {{ engine: string, repetition: number, error: string }[]} */
  const errors = [];
  for (let repetition = 1; repetition <= options.repetitions; repetition++) {
    // Alternate the order so neither engine always runs on a link the other just warmed up (or left queued).
    const order = repetition % 2 ? engines : [...engines].reverse();
    for (const engine of order) {
      // An engine may run fewer times than the profile's repetitions (the smoke's comparison engine runs once).
      if (repetition > (options.repetitionsOf?.(engine.name) ?? options.repetitions)) continue;
      let outcome = await runEngine(context, engine, profile, truth, repetition, options);
      // A third-party engine's single run (the smoke's reference) failing on one connection says nothing about ours:
      // it gets one more try, in the log, and only a second failure counts. Our engine never gets a retry.
      if (outcome.error && options.retriesOf?.(engine.name)) {
        options.log(`  #${repetition} ${engine.name}: retrying once (the run above failed)`);
        outcome = await runEngine(context, engine, profile, truth, repetition, options);
      }
      rows.push(...outcome.rows);
      if (outcome.error) errors.push(outcome.error);
    }
    // More truth probes between repetitions, so the latency truth spans the same minutes (and load) as the runs.
    delayedRtts.push(...(await curlRtts(link, server.origin, 20)));
  }
  // A throughput truth far below the link's capacity may have been read while the machine starved iperf3: it is
  // measured again now, and the best of all runs stands (`truthLooksStarved`).
  for (const [metric, direction, rateMbit, truthKey, runsKey] of /** @type {const} */ ([
    ['download', 'down', profile.downMbit, 'iperfDownMbit', 'iperfDownRunsMbit'],
    ['upload', 'up', profile.upMbit, 'iperfUpMbit', 'iperfUpRunsMbit'],
  ])) {
    if (!truthLooksStarved(truth[metric], rateMbit)) continue;
    const before = probe[runsKey].map((mbit) => mbit * 1e6);
    const again = await iperfTruth(link, direction, rateMbit, options.iperfSeconds, before);
    options.log(
      `  truth ${metric}: ${fmt(truth[metric] / 1e6)} Mbit/s is under 90 % of the line's ${fmt(lineGoodputBps(rateMbit) / 1e6)}, ` +
        `measured again after the engines: runs ${again.runs
          .slice(before.length)
          .map((bps) => fmt(bps / 1e6, 2))
          .join(' ')}, ` +
        `truth ${fmt(again.bps / 1e6)} Mbit/s`,
    );
    truth[metric] = again.bps;
    probe[runsKey] = again.runs.map((bps) => bps / 1e6);
    probe[truthKey] = again.bps / 1e6;
    for (const row of rows) if (throughputDirection(row.metric) === metric) row.truth = again.bps;
  }
  // Rows carry the truth known when they were measured; latency truth is final only now.
  probe.curlLatencyMs = median(delayedRtts);
  probe.curlJitterMs = meanAbsoluteDelta(delayedRtts);
  probe.overheadMs = probe.curlLatencyMs - profile.rttMs;
  for (const row of rows) if (row.metric === 'latency') row.truth = probe.curlLatencyMs;
  return { rows, errors, probe };
}

/**
 * One log line: per direction, the wire's rate in the figure's window and how far the page's intervals there read
 * from it. @param {Record<'download' | 'upload', { wireBps: number, pageBps: number } | null>} onWire
 */
function wireLine(onWire) {
  const part = (/** @type {'download' | 'upload'} */ direction) => {
    const measured = onWire[direction];
    if (!measured) return `${direction} n/a`;
    const percent = ((measured.pageBps - measured.wireBps) / measured.wireBps) * 100;
    return `${direction} ${fmt(measured.wireBps / 1e6)} (page ${percent >= 0 ? '+' : ''}${fmt(percent)} %)`;
  };
  return `wire in the figure windows, Mbit/s: ${part('download')}, ${part('upload')}`;
}

/** @param {number} value @param {number} [digits] */
function fmt(value, digits = 1) {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
