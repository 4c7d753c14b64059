import { isAbort, NoAnswerError, ping, sleep } from '../probe';
import { median } from '../stats/summary';
import type { LoadCondition, RequestSample } from '../types';

/** Turns a ping's probe result into a CSV row. */
function pingSample(
  result: Awaited<ReturnType<typeof ping>>,
  testOriginMs: number,
  load: LoadCondition,
  parallelStreams: number,
): RequestSample {
  return {
    kind: 'latency',
    bytes: 0,
    receivedBytes: 0,
    startMs: result.startMs - testOriginMs,
    durationMs: result.timing.pingMs,
    bitsPerSecond: null,
    ttfbMs: result.timing.ttfbMs,
    serverMs: result.serverMs,
    pingMs: result.timing.pingMs,
    parallelStreams,
    load,
    timingSource: result.timing.source,
  };
}

/**
 * Idle pings: two warm-up pings (the first pays for DNS, TCP and TLS, which are not round-trip time; the second for a
 * cold server path), then `count` pings one after another. A ping with no answer within `timeoutMs` ends the pings:
 * a server that stopped answering would otherwise hold the run forever (a fetch has no deadline of its own, and a
 * blackholed connection waits minutes for TCP to give up). The pings that came back stand; with none the phase
 * fails with the `NoAnswerError`. Any other failed ping is a lost sample.
 */
export async function runLatencyPhase(
  serverUrl: string,
  count: number,
  signal: AbortSignal,
  testOriginMs: number,
  onSample: (sample: RequestSample) => void,
  timeoutMs = Number.POSITIVE_INFINITY,
): Promise<RequestSample[]> {
  const samples: RequestSample[] = [];
  for (let warmUp = 0; warmUp < 2; warmUp++) await ping({ serverUrl, signal }, 'idle', timeoutMs);
  for (let index = 0; index < count; index++) {
    try {
      const sample = pingSample(await ping({ serverUrl, signal }, 'idle', timeoutMs), testOriginMs, 'idle', 0);
      samples.push(sample);
      onSample(sample);
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      if (error instanceof NoAnswerError) {
        if (samples.length === 0) throw error;
        break;
      }
      // One failed ping is a lost sample, not a failed test.
    }
  }
  if (samples.length === 0) throw new Error('every latency probe failed');
  return samples;
}

export interface LoadedPingInput {
  serverUrl: string;
  signal: AbortSignal;
  load: 'download' | 'upload';
  /** Gap between the starts of two pings (ms); a slow ping delays the next, pings never overlap. */
  intervalMs: number;
  testOriginMs: number;
  /** False once the phase has decided: no new ping starts. */
  running: () => boolean;
  streams: () => number;
  onSample: (sample: RequestSample) => void;
}

/** Latency under load: sequential pings while a transfer phase runs, tagged with its direction. */
export async function pingWhileLoaded(input: LoadedPingInput): Promise<void> {
  const context = { serverUrl: input.serverUrl, signal: input.signal };
  while (!input.signal.aborted && input.running()) {
    const startedMs = performance.now();
    try {
      input.onSample(pingSample(await ping(context, input.load), input.testOriginMs, input.load, input.streams()));
    } catch (error) {
      if (isAbort(error, input.signal)) return;
      // A lost ping under load is a missing sample, not a failed phase.
    }
    await sleep(Math.max(0, input.intervalMs - (performance.now() - startedMs)), input.signal);
  }
}

/**
 * The idle pings the idle latency and jitter are made of, from a run's samples (pure; the engine, the page's details
 * and the CSV's `in_headline` all use it): those taken once the download phase had ended and the link had drained
 * (idle pings that started after the first download request), else, when there are none (no download phase, every
 * one failed), those at the start.
 * Pings at the start run while the page and the browser are still starting up, and read high: in the accuracy lab
 * (100/20 Mbit/s, 20 ms) 20 pings from a freshly loaded page read +1.9 to +4.7 ms over the curl truth, the same pings
 * 3 s later −2.4 to +1.7 ms, and @cloudflare/speedtest's pings after its transfer steps (two after each, most of its
 * idle latency's pings) 27.5–29.5 ms against 28.9–42.4 ms for its first 22 (bench/accuracy/findings.md, 2026-11-26). The
 * start pings still size the download phase (its requests and intervals follow the round trip).
 */
export function headlineIdlePings(samples: readonly RequestSample[]): RequestSample[] {
  const idle = samples.filter((sample) => sample.kind === 'latency' && sample.load === 'idle');
  let downloadStartMs = Number.POSITIVE_INFINITY;
  for (const sample of samples)
    if (sample.kind === 'download') downloadStartMs = Math.min(downloadStartMs, sample.startMs);
  const settled = idle.filter((sample) => sample.startMs > downloadStartMs);
  return settled.length > 0 ? settled : idle;
}

/**
 * How long to wait after a download phase before idle pings (ms, pure): one round trip under that load. Its
 * requests are cut when it ends; the server hears of it within half an idle round trip, and what it had already sent
 * sits in the bottleneck's queue for at most the queueing delay the loaded pings measured (loaded − idle round trip).
 * @param idleRttMs median idle round trip of the start pings (ms; NaN = unknown)
 * @param loadedPingsMs the download phase's pings under load (ms)
 */
export function drainWaitMs(idleRttMs: number, loadedPingsMs: readonly number[]): number {
  const idleMs = Number.isFinite(idleRttMs) && idleRttMs > 0 ? idleRttMs : 0;
  const loadedMs = loadedPingsMs.length > 0 ? median(loadedPingsMs) : Number.NaN;
  return Number.isFinite(loadedMs) ? Math.max(idleMs, loadedMs) : 2 * idleMs;
}

/**
 * Whether a ping after a download still waits behind the download's bytes (pure): it reads above every start ping by
 * more than their noise (their spread, at least 2 ms). The drain wait (`drainWaitMs`) covers the bottleneck's queue,
 * but over HTTP/2 or HTTP/3 the download's connection stays open when its requests are cut, and what the server had
 * already written to its socket still crosses the link: behind the lab's HTTP/2 front at 5 Mbit/s, 200 ms, pings read
 * 218–242 ms for 2.5 s after the wait against 206 ms before the download, and the idle jitter 3.5–5.6 ms where the
 * link's was 1.6 (`bench/results/accuracy/s52-h2-jitter`, 2026-11-28).
 * @param pingMs the ping just taken (ms)
 * @param startPingsMs the idle pings before any transfer (ms); none = never draining
 */
export function stillDraining(pingMs: number, startPingsMs: readonly number[]): boolean {
  if (startPingsMs.length === 0) return false;
  const highestMs = Math.max(...startPingsMs);
  const marginMs = Math.max(2, highestMs - Math.min(...startPingsMs));
  return pingMs > highestMs + marginMs;
}

/** The longest a settling link is waited for after a download (ms): 5 s, or 10 idle round trips on a longer path. */
export function maxDrainMs(idleRttMs: number): number {
  return Math.max(5000, Number.isFinite(idleRttMs) ? 10 * idleRttMs : 0);
}

/** Pings in a row that must read as the start pings did before the link counts as idle again. */
export const drainedPingsInARow = 3;

/**
 * Pings, not kept, until `drainedPingsInARow` in a row read as the start pings did (`stillDraining`) or `maxMs`
 * have passed: the link is idle again. One is not enough: the pings have a connection of their own, and the queue
 * they see is only what the download's connection has in flight, which after a loss can be small for a round trip
 * while its server still holds a megabyte to send (behind the lab's HTTP/2 front, one ping at 5 Mbit/s, 200 ms read
 * idle and the next nine 218–266 ms). Over HTTP/1.1 the first ones usually do (a cut download closes its connection,
 * and the server drops what it had not sent), so this costs three round trips. A failed ping ends the wait: the pings
 * that follow say what they can.
 */
export async function awaitDrained(
  serverUrl: string,
  startPingsMs: readonly number[],
  maxMs: number,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<void> {
  const untilMs = performance.now() + maxMs;
  let inARow = 0;
  while (performance.now() < untilMs) {
    try {
      const { timing } = await ping({ serverUrl, signal }, 'drain', timeoutMs);
      inARow = stillDraining(timing.pingMs, startPingsMs) ? 0 : inARow + 1;
      if (inARow >= drainedPingsInARow) return;
    } catch (error) {
      if (isAbort(error, signal)) throw error;
      return;
    }
  }
}
