import { CompressedDownloadError, sleep } from '../probe';
import { GoodputMeter } from '../stats/goodput';
import { decideRamp, pastDecision, type RampDecision, roomForAnotherStep, type WindowBasis } from '../stats/ramp';
import { mean, median } from '../stats/summary';
import type {
  BandwidthResult,
  DirectionFailure,
  GoodputInterval,
  RequestSample,
  SpeedTestOptions,
  StopReason,
} from '../types';
import { type PathTiming, pathTiming, phaseTimeBudgetMs, smallestUploadRequestBytes } from './bandwidth-request';
import { addStreams, allStreamsReturned, type StreamPool } from './bandwidth-streams';
import { summarizeBandwidth } from './bandwidth-summary';
import { DirectionFailedError, failureMessage } from './direction-failure';
import { pingWhileLoaded } from './latency';
import { noDataFailure } from './no-data';

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
    /** The phase's time budget (ms): the configured one, or longer on a long path (`phaseTimeBudgetMs`). */
    budgetMs: number;
  }) => void;
  /** Payload for uploads, at least `maxUploadRequestBytes` long. */
  payload: Blob;
  /** Uploads: try a WebSocket per stream first (`socketUploadsWanted`); HTTP requests otherwise or when it fails. */
  uploadSockets?: boolean;
}

export interface BandwidthPhaseOutput {
  result: BandwidthResult;
  samples: RequestSample[];
  loadedPings: RequestSample[];
  intervals: GoodputInterval[];
  bytes: number;
}

/** A running phase: its streams, its pings under load, and what the ramp controller has decided so far. */
interface PhaseRun {
  readonly input: BandwidthPhaseInput;
  readonly phaseStartMs: number;
  readonly timing: PathTiming;
  /** When the phase stops on time (ms after its start): `phaseTimeBudgetMs`. */
  readonly timeBudgetMs: number;
  readonly pool: StreamPool;
  readonly loadedPings: RequestSample[];
  /** Interval index where each stream count began, first at 0. */
  readonly streamChanges: { intervalIndex: number; streams: number }[];
  streamsReturned: boolean;
  stepStartIndex: number;
  previousStep: { window: number[]; streams: number; basis: WindowBasis; settled: boolean } | null;
  stopReason: StopReason | null;
  finalWindow: number[] | null;
  finalBasis: WindowBasis | null;
  /** Once the ramp has finished: the phase runs until this many intervals are complete (`pastDecision`). */
  finishAtIntervals: number | null;
  /** Up to when the meter's intervals were complete when the phase stopped (uploads cut then never add bytes). */
  settledAtStopMs: number;
}

/**
 * One direction: streams loop over requests sized to `targetRequestMs` (longer on long paths: bandwidth-request.ts);
 * a controller reads the goodput meter each interval and doubles the streams while that still raises goodput, then
 * stops once goodput is stable, or at the byte or time budget. A pinger measures latency under this load meanwhile.
 * A phase that ends without a figure (a request failed, or under `minMeasuredBytes` moved) throws a
 * `DirectionFailedError`; an AbortError after abort or pause.
 */
export async function runBandwidthPhase(input: BandwidthPhaseInput): Promise<BandwidthPhaseOutput> {
  const run = newPhaseRun(input);
  const { pool } = run;
  const forwardAbort = () => pool.stop.abort(input.signal.reason);
  input.signal.addEventListener('abort', forwardAbort);
  addStreams(pool, 1);
  const streamsReturned = allStreamsReturned(pool).then(() => {
    run.streamsReturned = true;
  });
  const pingerDone = pingUnderLoad(run);
  try {
    await rampUntilDecided(run);
  } finally {
    drainAndStop(run);
    input.signal.removeEventListener('abort', forwardAbort);
    await Promise.allSettled([streamsReturned, pingerDone]);
  }
  if (input.signal.aborted) throw new DOMException('phase aborted', 'AbortError');
  const endMs = performance.now();
  // Bytes the meter placed: what arrived (downloads) or what the server confirmed (uploads).
  const failed = (reason: DirectionFailure['reason'], message: string, cause?: unknown) =>
    new DirectionFailedError(
      input.direction,
      { reason, message, bytes: pool.meter.totalBytes, durationMs: endMs - run.phaseStartMs },
      usedBytes(input.direction, pool),
      { cause },
    );
  if (pool.failure) {
    const reason = pool.failure instanceof CompressedDownloadError ? 'compressed' : 'error';
    throw failed(reason, failureMessage(pool.failure), pool.failure);
  }
  const noData = noDataFailure(
    input.direction,
    pool.meter.totalBytes,
    endMs - run.phaseStartMs,
    input.options.maxBytesPerDirection,
  );
  if (noData) throw failed('no-data', noData);
  return phaseOutput(run, endMs);
}

function newPhaseRun(input: BandwidthPhaseInput): PhaseRun {
  const { direction, options } = input;
  const phaseStartMs = performance.now();
  // Longer requests and intervals on long paths (bandwidth-request.ts); short paths keep the configured values.
  const timing = pathTiming(options, input.idleRttMs);
  const timeBudgetMs = phaseTimeBudgetMs(options, input.idleRttMs);
  const loadedPings: RequestSample[] = [];
  const maxRequestBytes = direction === 'download' ? options.maxDownloadRequestBytes : options.maxUploadRequestBytes;
  const pool: StreamPool = {
    direction,
    options,
    testOriginMs: input.testOriginMs,
    idleRttMs: input.idleRttMs,
    loadedRttMs: () => median(loadedPings.map((sample) => sample.pingMs)),
    targetRequestMs: timing.targetRequestMs,
    maxRequestBytes,
    payload: input.payload,
    meter: new GoodputMeter(phaseStartMs, timing.intervalMs),
    stop: new AbortController(),
    onSample: input.onSample,
    samples: [],
    inFlightFromMs: new Map<object, number>(),
    streamsDone: [],
    streams: 0,
    // The largest request wins over the smallest: the upload payload is only maxUploadRequestBytes long, and a first
    // request sized past it sent the payload's bytes while its sample and the byte budget counted the size asked for.
    // An upload starts small (smallestUploadRequestBytes): its first request must finish within the time budget on
    // the slowest uplink the test measures.
    nextRequestBytes: Math.min(
      direction === 'upload' ? smallestUploadRequestBytes(options.minRequestBytes) : options.minRequestBytes,
      maxRequestBytes,
    ),
    issuedBytes: 0,
    failure: null,
    readVerdicts: { copy: 0, link: 0 },
    serverReadsCopies: false,
    draining: false,
    socketStreams: 0,
    httpStreams: 0,
    socketsWork: direction === 'upload' && input.uploadSockets === true,
    socketBlock: null,
  };
  return {
    input,
    phaseStartMs,
    timing,
    timeBudgetMs,
    pool,
    loadedPings,
    streamChanges: [{ intervalIndex: 0, streams: 1 }],
    streamsReturned: false,
    stepStartIndex: 0,
    previousStep: null,
    stopReason: null,
    finalWindow: null,
    finalBasis: null,
    finishAtIntervals: null,
    settledAtStopMs: Number.POSITIVE_INFINITY,
  };
}

/** Sequential pings while the streams run; they stop starting once the phase drains. */
function pingUnderLoad(run: PhaseRun): Promise<void> {
  const { input, pool } = run;
  return pingWhileLoaded({
    serverUrl: input.options.serverUrl,
    signal: pool.stop.signal,
    load: input.direction,
    intervalMs: input.options.loadedPingIntervalMs,
    testOriginMs: input.testOriginMs,
    running: () => !pool.draining,
    streams: () => pool.streams,
    onSample: (sample) => {
      run.loadedPings.push(sample);
      input.onSample(sample);
    },
  });
}

/** Every half interval: report progress, then stop at a budget, add streams, or finish as the ramp decides. */
async function rampUntilDecided(run: PhaseRun): Promise<void> {
  const { input, pool } = run;
  while (!pool.stop.signal.aborted) {
    await sleep(run.timing.intervalMs / 2, pool.stop.signal);
    if (input.signal.aborted) return;
    const settledMs = settledAtMs(pool);
    const intervalsBitsPerSecond = pool.meter.closedIntervals(settledMs);
    reportProgress(run, intervalsBitsPerSecond);
    if (run.finishAtIntervals !== null) {
      // Decided: only the intervals after the decision are still to come (or a budget cuts them short).
      if (intervalsBitsPerSecond.length >= run.finishAtIntervals || budgetStopReason(run)) return;
      continue;
    }
    run.stopReason = budgetStopReason(run);
    if (run.stopReason) return;
    const decision = decideRamp({
      intervalsBitsPerSecond,
      spanEndsPerInterval: pool.meter.closedSpanEnds(settledMs),
      // Half the completions the streams' requests give per interval, at most the default: long uploads end rarely.
      minSpanEndsPerInterval: Math.min(0.5, (0.5 * pool.streams * run.timing.intervalMs) / run.timing.targetRequestMs),
      stepStartIndex: run.stepStartIndex,
      previousStepBitsPerSecond: run.previousStep ? mean(run.previousStep.window) : null,
      previousStepWindow: run.previousStep?.window,
      streams: pool.streams,
      maxStreams: input.options.maxStreams,
      windowIntervals: input.options.stableIntervals,
      tolerance: input.options.stableTolerance,
      // Room for a plateau test (two windows) after the transition interval, plus one window for a slow opener.
      maxStepIntervals: input.options.stableIntervals * 3,
    });
    applyDecision(run, decision, settledMs);
  }
}

/**
 * Up to when the meter's intervals are complete (ms): now for downloads, whose bytes are counted as they arrive; for
 * uploads the oldest instant a request in flight may still add bytes or an idle gap to (bandwidth-streams.ts): its
 * bytes are only placed in time once it has finished.
 */
function settledAtMs(pool: StreamPool): number {
  return pool.direction === 'download'
    ? performance.now()
    : Math.min(performance.now(), ...pool.inFlightFromMs.values());
}

function reportProgress(run: PhaseRun, intervalsBitsPerSecond: readonly number[]): void {
  run.input.onProgress({
    bitsPerSecond: intervalsBitsPerSecond.at(-1) ?? null,
    latencyMs: run.loadedPings.at(-1)?.pingMs ?? null,
    streams: run.pool.streams,
    bytes: run.pool.meter.totalBytes,
    elapsedMs: performance.now() - run.phaseStartMs,
    budgetMs: run.timeBudgetMs,
  });
}

/** 'bytes' once every stream has spent the byte budget, 'time' past the phase's time budget, else null. */
function budgetStopReason(run: PhaseRun): StopReason | null {
  if (run.streamsReturned) return 'bytes';
  if (performance.now() - run.phaseStartMs >= run.timeBudgetMs) return 'time';
  return null;
}

/**
 * Doubles the streams, or records the finish and how many intervals the phase still runs. A settled step with no
 * time left to judge more streams (`roomForAnotherStep`) finishes instead: its window is the best figure the phase
 * can have, and the reason is `time`, since more streams were never tried (a link one stream cannot fill reads low
 * then, and the page and the confidence must not call that stable).
 * Upload intervals close only once the requests overlapping them have finished, up to a request (8 round trips or
 * more) after now: a new step's window is complete that much later, so that lag is not room.
 * @param settledMs up to when the intervals the decision read were complete (`settledAtMs`, ms)
 */
function applyDecision(run: PhaseRun, decision: RampDecision, settledMs: number): void {
  const { pool } = run;
  const nowMs = performance.now();
  const closingLagMs = nowMs - settledMs;
  const remainingMs = run.timeBudgetMs - (nowMs - run.phaseStartMs) - closingLagMs;
  const noRoom = !roomForAnotherStep(remainingMs, run.timing.intervalMs, run.input.options.stableIntervals);
  if (decision.action === 'add-streams' && decision.settled && noRoom) {
    finish(run, decision.window, decision.basis, 'time');
    return;
  }
  if (decision.action === 'add-streams') {
    run.previousStep = {
      window: decision.window,
      streams: pool.streams,
      basis: decision.basis,
      settled: decision.settled,
    };
    run.stepStartIndex = pool.meter.intervalAt(performance.now());
    const targetStreams = Math.min(run.input.options.maxStreams, pool.streams * 2);
    run.streamChanges.push({ intervalIndex: run.stepStartIndex, streams: targetStreams });
    addStreams(pool, targetStreams);
    return;
  }
  if (decision.action === 'finish')
    finish(run, decision.window, decision.basis, decision.stable ? 'stable' : 'step-limit');
}

/** The ramp has decided on `window`: the phase runs until the interval past it is complete (`pastDecision`). */
function finish(run: PhaseRun, window: number[], basis: WindowBasis, reason: StopReason): void {
  run.stopReason = reason;
  run.finalWindow = window;
  run.finalBasis = pastDecision(basis);
  run.finishAtIntervals = run.finalBasis.endIndex;
}

/**
 * No new request starts and the requests in flight are cut: the figure rests on intervals every byte of which had
 * arrived when the ramp decided (downloads count chunks as they arrive; an upload interval closes only once every
 * request overlapping it has finished), so whatever is still moving would only add bytes moved (an upload sized to
 * last several round trips at 100 Mbit/s is megabytes).
 */
function drainAndStop(run: PhaseRun): void {
  run.pool.draining = true;
  run.settledAtStopMs = settledAtMs(run.pool);
  run.pool.stop.abort('phase finished');
}

function phaseOutput(run: PhaseRun, endMs: number): BandwidthPhaseOutput {
  const { input, pool, timing } = run;
  // Intervals after the last byte would only add the idle tail of the phase to the figures.
  // Nor intervals that requests cut at the stop would have filled.
  const closedUntilMs = Math.min(endMs, pool.meter.lastEndMs, run.settledAtStopMs);
  const { result, intervals } = summarizeBandwidth({
    direction: input.direction,
    closedIntervals: pool.meter.closedIntervals(closedUntilMs),
    closedBusyMs: pool.meter.closedBusyMs(closedUntilMs),
    intervalMs: timing.intervalMs,
    phaseOffsetMs: run.phaseStartMs - input.testOriginMs,
    phaseDurationMs: endMs - run.phaseStartMs,
    streamChanges: run.streamChanges,
    stepStartIndex: run.stepStartIndex,
    finalWindow: run.finalWindow,
    finalBasis: run.finalBasis,
    previousStep: run.previousStep,
    stopReason: run.stopReason ?? 'time',
    stableIntervals: input.options.stableIntervals,
    tolerance: input.options.stableTolerance,
    streams: pool.streams,
    meteredBytes: pool.meter.totalBytes,
    samples: pool.samples,
  });
  const transport = pool.socketStreams === 0 ? 'http' : pool.httpStreams === 0 ? 'websocket' : ('mixed' as const);
  return {
    result: { ...result, transport, ...(pool.serverReadsCopies && { bufferedByProxy: true as const }) },
    samples: pool.samples,
    loadedPings: run.loadedPings,
    intervals,
    bytes: usedBytes(input.direction, pool),
  };
}

/** Bytes a phase used: what arrived (downloads), every byte sent (uploads, also those the server never confirmed). */
const usedBytes = (direction: 'download' | 'upload', pool: StreamPool) =>
  direction === 'download' ? pool.meter.totalBytes : pool.issuedBytes;
