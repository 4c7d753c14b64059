import { isAbort, ping } from '../probe';
import type { LoadCondition, RequestSample } from '../types';

/** Turns a ping's probe result into a CSV row. */
export function pingSample(
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
 * Idle latency: one warm-up ping (it pays for DNS, TCP and TLS, which are not round-trip time), then `count`
 * pings one after another.
 */
export async function runLatencyPhase(
  serverUrl: string,
  count: number,
  signal: AbortSignal,
  testOriginMs: number,
  onSample: (sample: RequestSample) => void,
): Promise<RequestSample[]> {
  const samples: RequestSample[] = [];
  await ping({ serverUrl, signal }, 'idle');
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
