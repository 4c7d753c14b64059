import { download, isAbort, sleep, upload } from '../probe';
import { GoodputMeter } from '../stats/goodput';
import { decideRamp, nextRequestBytes } from '../stats/ramp';
import { mean } from '../stats/summary';
import type { BandwidthResult, GoodputInterval, RequestSample, SpeedTestOptions, StopReason } from '../types';
import { pathTiming } from './bandwidth-request';
import { summarizeBandwidth, transferSample } from './bandwidth-summary';
import { pingWhileLoaded } from './latency';

export interface BandwidthPhaseInput {
  direction: 'download' | 'upload';
  options: SpeedTestOptions;
  signal: AbortSignal;
  testOriginMs: number;
  /** Median idle round trip (ms): taken out of upload durations. */
  idleRttMs: number;
  onSample: (sample: RequestSample) => void;
  onProgress: (update: {
    bitsPerSecond: number | null;
    latencyMs: number | null;
    streams: number;
    bytes: number;
    elapsedMs: number;
  }) => void;
  /** Payload for uploads, at least `maxUploadRequestBytes` long. */
  payload: Blob;
}

export interface BandwidthPhaseOutput {
  result: BandwidthResult;
  samples: RequestSample[];
  loadedPings: RequestSample[];
  intervals: GoodputInterval[];
  bytes: number;
}

/**
 * One direction: streams loop over requests sized to `targetRequestMs` (longer on long paths: bandwidth-request.ts);
 * a controller reads the goodput meter each interval and doubles the streams while that still raises goodput, then
 * stops once goodput is stable, or at the byte or time budget. A pinger measures latency under this load meanwhile.
 */
export async function runBandwidthPhase(input: BandwidthPhaseInput): Promise<BandwidthPhaseOutput> {
  const { direction, options, testOriginMs } = input;
  const phaseStartMs = performance.now();
  // Longer requests and intervals on long paths (bandwidth-request.ts); short paths keep the configured values.
  const timing = pathTiming(options, input.idleRttMs);
  const meter = new GoodputMeter(phaseStartMs, timing.intervalMs);
  const stop = new AbortController();
  const forwardAbort = () => stop.abort(input.signal.reason);
  input.signal.addEventListener('abort', forwardAbort);
  const samples: RequestSample[] = [];
  const loadedPings: RequestSample[] = [];
  const inFlightStartsMs = new Set<number>();
  const streamChanges: { intervalIndex: number; streams: number }[] = [{ intervalIndex: 0, streams: 1 }];
  const maxRequestBytes = direction === 'download' ? options.maxDownloadRequestBytes : options.maxUploadRequestBytes;
  const targetMs = timing.targetRequestMs;
  let streams = 0;
  let issuedBytes = 0;
  let stopReason: StopReason | null = null;
  let finalWindow: number[] | null = null;
  let failure: unknown = null;
  // Set when the phase has decided: no new request starts, the ones in flight may finish (see the drain below).
  let draining = false;
  const workers: Promise<void>[] = [];

  const streamLoop = async () => {
    const context = { serverUrl: options.serverUrl, signal: stop.signal };
    let bytes = options.minRequestBytes;
    while (!stop.signal.aborted && !draining) {
      const remaining = options.maxBytesPerDirection - issuedBytes;
      if (remaining <= 0) return;
      const size = Math.min(bytes, remaining);
      issuedBytes += size;
      const startMs = performance.now();
      inFlightStartsMs.add(startMs);
      const parallel = streams;
      try {
        const probe =
          direction === 'download'
            ? await download(context, size, (fromMs, toMs, chunk) => meter.addSpan(fromMs, toMs, chunk))
            : await upload(context, size, input.payload);
        if (direction === 'upload') {
          // Bytes left the client between the request start and one round trip before the response began.
          meter.addSpan(
            probe.requestStartMs,
            Math.max(probe.requestStartMs, probe.responseStartMs - input.idleRttMs),
            size,
          );
        }
        const sample = transferSample(direction, probe, size, parallel, input.idleRttMs, testOriginMs);
        samples.push(sample);
        input.onSample(sample);
        bytes = nextRequestBytes(size, sample.durationMs, targetMs, options.minRequestBytes, maxRequestBytes);
      } catch (error) {
        if (isAbort(error, stop.signal)) return;
        // A failed request ends the phase: the figures would silently lack a stream otherwise.
        failure ??= error;
        stop.abort('a request failed');
      } finally {
        inFlightStartsMs.delete(startMs);
      }
    }
  };

  const addStreams = (target: number) => {
    while (streams < target) {
      streams++;
      workers.push(streamLoop());
    }
  };

  const settledMs = () =>
    direction === 'download' ? performance.now() : Math.min(performance.now(), ...inFlightStartsMs);
  let workersDone = false;
  addStreams(1);
  const allWorkers = (async () => {
    // Streams added later join `workers`; wait until every one of them has returned.
    let seen = 0;
    while (seen < workers.length) {
      const batch = workers.slice(seen);
      seen = workers.length;
      await Promise.all(batch);
    }
    workersDone = true;
  })();
  const pingerDone = pingWhileLoaded({
    serverUrl: options.serverUrl,
    signal: stop.signal,
    load: direction,
    intervalMs: options.loadedPingIntervalMs,
    testOriginMs,
    running: () => !draining,
    streams: () => streams,
    onSample: (sample) => {
      loadedPings.push(sample);
      input.onSample(sample);
    },
  });
  let stepStartIndex = 0;
  let previousStep: { window: number[]; streams: number } | null = null;

  try {
    while (!stop.signal.aborted) {
      await sleep(timing.intervalMs / 2, stop.signal);
      if (input.signal.aborted) break;
      const settled = settledMs();
      const intervals = meter.closedIntervals(settled);
      input.onProgress({
        bitsPerSecond: intervals.at(-1) ?? null,
        latencyMs: loadedPings.at(-1)?.pingMs ?? null,
        streams,
        bytes: meter.totalBytes,
        elapsedMs: performance.now() - phaseStartMs,
      });
      if (workersDone) {
        stopReason = 'bytes';
        break;
      }
      if (performance.now() - phaseStartMs >= options.maxDurationPerDirectionMs) {
        stopReason = 'time';
        break;
      }
      const decision = decideRamp({
        intervalsBitsPerSecond: intervals,
        spanEndsPerInterval: meter.closedSpanEnds(settled),
        stepStartIndex,
        previousStepBitsPerSecond: previousStep ? mean(previousStep.window) : null,
        streams,
        maxStreams: options.maxStreams,
        windowIntervals: options.stableIntervals,
        tolerance: options.stableTolerance,
        maxStepIntervals: options.stableIntervals * 2,
        summary: direction === 'upload' ? 'step' : timing.downloadSummary,
      });
      if (decision.action === 'add-streams') {
        previousStep = { window: decision.window, streams };
        stepStartIndex = meter.intervalAt(performance.now());
        const target = Math.min(options.maxStreams, streams * 2);
        streamChanges.push({ intervalIndex: stepStartIndex, streams: target });
        addStreams(target);
      } else if (decision.action === 'finish') {
        stopReason = decision.stable ? 'stable' : 'step-limit';
        finalWindow = decision.window;
        break;
      }
    }
  } finally {
    draining = true;
    // Let requests in flight finish (each is sized to last about targetMs) so their samples count in full and
    // connections close cleanly instead of mid-body; whatever is still running then is cut. Pause and abort skip this.
    if (!input.signal.aborted && !failure) {
      await Promise.race([allWorkers.catch(() => undefined), sleep(targetMs, stop.signal)]);
    }
    stop.abort('phase finished');
    input.signal.removeEventListener('abort', forwardAbort);
    await Promise.allSettled([allWorkers, pingerDone]);
  }
  if (input.signal.aborted) throw new DOMException('phase aborted', 'AbortError');
  if (failure) throw failure;

  const endMs = performance.now();
  const { result, intervals } = summarizeBandwidth({
    direction,
    // Intervals after the last byte would only add the idle tail of the phase to the figures.
    closedIntervals: meter.closedIntervals(Math.min(endMs, meter.lastEndMs)),
    intervalMs: timing.intervalMs,
    downloadSummary: timing.downloadSummary,
    phaseOffsetMs: phaseStartMs - testOriginMs,
    phaseDurationMs: endMs - phaseStartMs,
    streamChanges,
    stepStartIndex,
    finalWindow,
    previousStep,
    stopReason: stopReason ?? 'time',
    stableIntervals: options.stableIntervals,
    tolerance: options.stableTolerance,
    streams,
    meteredBytes: meter.totalBytes,
    samples,
  });
  return {
    result,
    samples,
    loadedPings,
    intervals,
    bytes: direction === 'download' ? meter.totalBytes : issuedBytes,
  };
}
