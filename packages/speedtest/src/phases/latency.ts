import { isAbort, ping, sleep } from '../probe';
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
 * Idle latency: two warm-up pings (the first pays for DNS, TCP and TLS, which are not round-trip time; the second
 * for a cold server path), then `count` pings one after another.
 */
export async function runLatencyPhase(
  serverUrl: string,
  count: number,
  signal: AbortSignal,
  testOriginMs: number,
  onSample: (sample: RequestSample) => void,
): Promise<RequestSample[]> {
  const samples: RequestSample[] = [];
  for (let warmUp = 0; warmUp < 2; warmUp++) await ping({ serverUrl, signal }, 'idle');
  for (let index = 0; index < count; index++) {
    try {
      const sample = pingSample(await ping({ serverUrl, signal }, 'idle'), testOriginMs, 'idle', 0);
      samples.push(sample);
      onSample(sample);
    } catch (error) {
      if (isAbort(error, signal)) throw error;
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
