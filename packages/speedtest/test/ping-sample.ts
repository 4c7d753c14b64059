import type { RequestSample } from '../src/types';

/** A ping as the engine records it: a round trip of `pingMs` that started `startMs` after the test did (ms). */
export const pingSample = (startMs: number, pingMs: number, load: RequestSample['load'] = 'idle'): RequestSample => ({
  kind: 'latency',
  bytes: 0,
  receivedBytes: 0,
  startMs,
  durationMs: pingMs,
  bitsPerSecond: null,
  ttfbMs: pingMs,
  serverMs: 0,
  pingMs,
  parallelStreams: 0,
  load,
  timingSource: 'resource-timing',
});
