import { resolveOptions } from './options';
import { type FinishedParts, missingParts } from './partial';
import { runBandwidthPhase } from './phases/bandwidth';
import { DirectionFailedError, nothingMeasuredMessage } from './phases/direction-failure';
import { awaitDrained, drainWaitMs, headlineIdlePings, maxDrainMs, runLatencyPhase } from './phases/latency';
import { defaultLossPhase, fetchTurnCredentials, type LossResult, lossPacing, runLossPhase } from './phases/loss';
import { socketUploadsWanted } from './phases/upload-socket';
import { randomBlob, sleep } from './probe';
import { lossTimeFraction, type ProgressPart, progressWeights } from './progress-weights';
import { buildResult, latencyResult, type ResultParts } from './result';
import { correctedForHoldBack } from './stats/hold-back';
import { median } from './stats/summary';
import type {
  DirectionFailure,
  EngineState,
  PartialRun,
  Phase,
  RequestSample,
  SpeedTestEvents,
  SpeedTestOptions,
  SpeedTestResult,
} from './types';

type Listener<K extends keyof SpeedTestEvents> = (detail: SpeedTestEvents[K]) => void;
type BandwidthOutput = Awaited<ReturnType<typeof runBandwidthPhase>>;
type BandwidthOutputs = Partial<Record<'download' | 'upload', BandwidthOutput>>;
type DirectionFailures = Record<'download' | 'upload', DirectionFailure | null>;

/**
 * Where the run stands: its time origin (performance.now() ms), the progress share of the parts done, and what each
 * finished part returned (what a partial result is made of after Stop or a failure).
 */
interface RunProgress {
  readonly testOriginMs: number;
  readonly startedAt: string;
  /** Each part's share of the bar; the loss phase's goes to the others once the server turns out to have no relay. */
  weights: Record<ProgressPart, number>;
  completedWeight: number;
  startPings: RequestSample[];
  settledPings: RequestSample[];
  bandwidth: BandwidthOutputs;
  /** Directions that ran to their end without a figure, and why (the run goes on without them). */
  failures: DirectionFailures;
  /** The parts whose end leaves no output of its own (a direction is done once `bandwidth` holds its output). */
  finished: Pick<FinishedParts, 'settledIdlePings' | 'loss'>;
}

/**
 * The speed test. `start()` runs idle latency, then each direction; `pause()` cancels the running phase's requests
 * and `resume()` runs that phase again from its start (completed phases are kept); `abort()` cancels everything.
 * No request outlives pause, abort or (with `pauseWhenHidden`) a hidden tab.
 */
export class SpeedTest {
  readonly options: SpeedTestOptions;
  #state: EngineState = 'ready';
  #listeners = new Map<keyof SpeedTestEvents, Set<Listener<never>>>();
  #phaseController: AbortController | null = null;
  #wake: (() => void) | null = null;
  #pausedByVisibility = false;
  #bytes = { download: 0, upload: 0 };
  #current: RunProgress | null = null;
  #endedMs: number | null = null;
  #failure: string | null = null;

  constructor(options: Partial<SpeedTestOptions> = {}) {
    this.options = resolveOptions(options);
  }

  get state(): EngineState {
    return this.#state;
  }

  /** Subscribes to an event; returns the function that unsubscribes. */
  on<K extends keyof SpeedTestEvents>(event: K, listener: Listener<K>): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    set.add(listener as Listener<never>);
    this.#listeners.set(event, set);
    return () => set.delete(listener as Listener<never>);
  }

  /** Runs the whole test; resolves with the result, rejects with an AbortError after `abort()`. */
  async start(): Promise<SpeedTestResult> {
    if (this.#state !== 'ready') throw new Error(`start() needs a fresh engine; this one is ${this.#state}`);
    this.#setState('running');
    const onVisibility = () => this.#visibilityChanged();
    const watchVisibility = this.options.pauseWhenHidden && typeof document !== 'undefined';
    if (watchVisibility) {
      document.addEventListener('visibilitychange', onVisibility);
      // A tab opened in the background (a link opened in a new tab, an autostarting page restored hidden) is hidden
      // before the run starts, and no visibilitychange comes until it is shown: without this it measured throttled
      // in the background, which `pauseWhenHidden` is there to prevent. Paused now, it starts once shown.
      this.#visibilityChanged();
    }
    try {
      const result = await this.#run();
      // abort() from a listener after the last phase (or while a phase's last step was already done) cancels nothing,
      // but it was called: start() keeps its word and rejects, and the state stays 'aborted'.
      if ((this.#state as EngineState) === 'aborted') throw new DOMException('speed test aborted', 'AbortError');
      this.#setState('finished');
      this.#emit('finish', result);
      return result;
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      this.#endedMs ??= performance.now();
      if ((this.#state as EngineState) !== 'aborted') {
        this.#failure = failure.message;
        this.#setState('failed');
        this.#emit('error', failure);
      }
      throw failure;
    } finally {
      if (watchVisibility) document.removeEventListener('visibilitychange', onVisibility);
    }
  }

  pause(): void {
    if (this.#state !== 'running') return;
    this.#setState('paused');
    this.#phaseController?.abort('paused');
  }

  resume(): void {
    if (this.#state !== 'paused') return;
    this.#pausedByVisibility = false;
    this.#setState('running');
    this.#wake?.();
  }

  abort(): void {
    if (this.#state !== 'running' && this.#state !== 'paused') return;
    this.#endedMs = performance.now();
    this.#setState('aborted');
    this.#phaseController?.abort('aborted');
    this.#wake?.();
  }

  /**
   * After Stop or a failure: the phases that had finished as a result of their own, marked `partial` with what is
   * missing; null while the run goes on, after it finished, or when not even the first idle pings were in. The phase
   * that was cut short contributes nothing: its figures are not results.
   */
  partialResult(): SpeedTestResult | null {
    const run = this.#current;
    if ((this.#state !== 'aborted' && this.#state !== 'failed') || !run || run.startPings.length === 0) return null;
    const partial: PartialRun = {
      reason: this.#state === 'aborted' ? 'stopped' : 'failed',
      message: this.#failure,
      missing: missingParts(this.options, {
        ...run.finished,
        download: run.bandwidth.download !== undefined,
        upload: run.bandwidth.upload !== undefined,
      }),
    };
    const endedMs = this.#endedMs ?? performance.now();
    const parts = resultParts({
      startedAt: run.startedAt,
      durationMs: endedMs - run.testOriginMs,
      startPings: run.startPings,
      settledPings: run.settledPings,
      bandwidth: run.bandwidth,
      failures: run.failures,
      lossOutcome: this.options.packetLoss
        ? 'the run ended before it was measured'
        : 'packet loss was not measured (turned off)',
      totalBytes: { ...this.#bytes },
      options: this.options,
    });
    return buildResult({ ...parts, partial });
  }

  async #run(): Promise<SpeedTestResult> {
    const options = this.options;
    // A run started in a hidden tab waits here until the tab is shown (pauseWhenHidden), and its clock starts after:
    // the wait measures nothing, and counted in, a tab left in the background for an hour reported an hour-long test
    // whose `startedAt` and every sample's `startMs` were off by that hour.
    await this.#phase(async () => undefined);
    const testOriginMs = performance.now();
    // Entries are how requests are timed; the default buffer of 250 would fill within one test.
    performance.setResourceTimingBufferSize?.(100_000);
    const run: RunProgress = {
      testOriginMs,
      startedAt: new Date().toISOString(),
      weights: progressWeights(options),
      completedWeight: 0,
      startPings: [],
      settledPings: [],
      bandwidth: {},
      failures: { download: null, upload: null },
      // Without a download there are no pings after it to wait for.
      finished: { settledIdlePings: !options.directions.includes('download'), loss: false },
    };
    this.#current = run;
    const payload = await randomBlob(options.directions.includes('upload') ? options.maxUploadRequestBytes : 0);

    run.startPings = await this.#idleLatencyPhase(run);
    // Whether the server has a TURN relay, asked while the link is idle: without one, the loss phase's share of the bar
    // goes to the parts that do run. Asked at the loss phase, it left the bar at about 60 % until the run jumped to
    // done, on every server without a relay (`npm start` without coturn, a deployment without TURN).
    const relay = options.packetLoss
      ? await this.#phase(async (signal): Promise<RelayCheck> => {
          const turn = await fetchTurnCredentials(options.serverUrl, signal, options.pingTimeoutMs);
          return { turn, atMs: performance.now() };
        })
      : null;
    let idleRttMs = median(run.startPings.map((sample) => sample.pingMs));
    // Weighed again now the round trip is known (a long path's directions take longer), and without the loss phase's
    // share when the server has no relay.
    run.weights = progressWeights(
      { ...options, packetLoss: options.packetLoss && typeof relay?.turn !== 'string' },
      idleRttMs,
    );
    run.completedWeight = run.weights.startPings;
    const { bandwidth } = run;
    for (const direction of ['download', 'upload'] as const) {
      if (!options.directions.includes(direction)) continue;
      // Uploads over WebSockets where HTTP requests under-read and sockets are not held back by the page's CPU.
      const uploadSockets =
        direction === 'upload' &&
        socketUploadsWanted(options.uploadTransport, idleRttMs, bandwidth.download?.result.bitsPerSecond.value ?? null);
      const outcome = await this.#bandwidthPhase(direction, run, idleRttMs, payload, uploadSockets);
      if ('failure' in outcome) {
        run.failures[direction] = outcome.failure;
        // A direction that failed leaves the others standing; a run that measured none of them fails as a whole.
        const nothingMeasured = nothingMeasuredMessage(options.directions, run.failures);
        if (nothingMeasured !== null) throw new Error(nothingMeasured);
      } else bandwidth[direction] = outcome;
      if (direction === 'download') {
        // The idle latency proper: the client has settled and the link is idle again (headlineIdlePings).
        run.settledPings = await this.#settledIdlePings(run, idleRttMs, bandwidth[direction]?.loadedPings ?? []);
        run.finished.settledIdlePings = true;
        if (run.settledPings.length > 0) idleRttMs = median(run.settledPings.map((sample) => sample.pingMs));
        this.#emit('phase', {
          phase: 'latency',
          result: latencyResult(run.settledPings.length > 0 ? run.settledPings : run.startPings, [], []),
          provisional: false,
        });
      }
    }
    // The last direction's queue drains first: a loss packet that meets what the upload's sockets still had queued
    // (megabytes on 100/100 Mbit/s, 80 ms) is dropped by that queue, and the link read 0.9 and 1.4 % loss up on a
    // 0.5 % path (2026-11-29, bench/accuracy with a relay).
    const lastLoadedPings = (bandwidth.upload ?? bandwidth.download)?.loadedPings ?? [];
    const lossOutcome = relay
      ? await this.#phase(async (signal) => {
          if (typeof relay.turn === 'string') return relay.turn;
          await this.#linkDrained(run, idleRttMs, lastLoadedPings, signal);
          return measureLoss(options, relay, slowerRate(bandwidth), signal, (fraction) =>
            this.#progress(
              'loss',
              run.completedWeight + run.weights.loss * lossTimeFraction(fraction, options.lossPackets),
              testOriginMs,
              {},
            ),
          );
        })
      : 'packet loss was not measured (turned off)';
    run.finished.loss = true;
    return buildResult(
      resultParts({
        startedAt: run.startedAt,
        durationMs: performance.now() - testOriginMs,
        startPings: run.startPings,
        settledPings: run.settledPings,
        bandwidth,
        failures: run.failures,
        lossOutcome,
        totalBytes: { ...this.#bytes },
        options,
      }),
    );
  }

  /**
   * Idle latency at the start: half of `idlePings` before any transfer, each reported as it comes. They size the
   * download phase; the figure comes from the settled pings after it when there are any (`headlineIdlePings`), so the
   * `phase` event's latency is a first reading.
   */
  async #idleLatencyPhase(run: RunProgress): Promise<RequestSample[]> {
    const count = Math.max(1, Math.ceil(this.options.idlePings / 2));
    const idlePings = await this.#phase((signal) =>
      runLatencyPhase(
        this.options.serverUrl,
        count,
        signal,
        run.testOriginMs,
        this.#pingReporter(run, 'startPings', count),
        this.options.pingTimeoutMs,
      ),
    );
    run.completedWeight += run.weights.startPings;
    // With a download to come, the idle latency proper is taken after it: this one is a first reading.
    const provisional = this.options.directions.includes('download');
    this.#emit('phase', { phase: 'latency', result: latencyResult(idlePings, [], []), provisional });
    return idlePings;
  }

  /**
   * Reports each of `count` idle pings as a sample and moves the bar through `part`'s share: on a 600 ms path the
   * start pings take 7 s, which the bar spent standing at 0, and the settled pings showed the download's last rate.
   */
  #pingReporter(run: RunProgress, part: 'startPings' | 'settledPings', count: number): (sample: RequestSample) => void {
    let done = 0;
    return (sample) => {
      this.#emit('sample', sample);
      done++;
      const fraction = run.completedWeight + run.weights[part] * (done / count);
      this.#progress('latency', fraction, run.testOriginMs, { latencyMs: sample.pingMs });
    };
  }

  /**
   * Waits until what a phase left queued has drained from the link: `drainWaitMs` (from the phase's loaded pings),
   * then `awaitDrained` against the start pings.
   */
  async #linkDrained(
    run: RunProgress,
    idleRttMs: number,
    loadedPings: readonly RequestSample[],
    signal: AbortSignal,
  ): Promise<void> {
    await sleep(
      drainWaitMs(
        idleRttMs,
        loadedPings.map((sample) => sample.pingMs),
      ),
      signal,
    );
    if (signal.aborted) throw new DOMException('phase aborted', 'AbortError');
    const startPingsMs = run.startPings.map((sample) => sample.pingMs);
    await awaitDrained(this.options.serverUrl, startPingsMs, maxDrainMs(idleRttMs), signal, this.options.pingTimeoutMs);
  }

  /**
   * `idlePings` idle pings after the download phase, once its cut requests have drained from the link
   * (`drainWaitMs`, then `awaitDrained`); none when every one failed (the start pings then stand).
   */
  async #settledIdlePings(
    run: RunProgress,
    idleRttMs: number,
    loadedPings: readonly RequestSample[],
  ): Promise<RequestSample[]> {
    const count = this.options.idlePings;
    const pings = await this.#phase(async (signal) => {
      // These pings report progress too: without it the page kept showing the download's last rate and bar as if
      // the download were still running (12 s of pings on a 600 ms path, 20 s on a 1 s one).
      this.#progress('latency', run.completedWeight, run.testOriginMs, {});
      await this.#linkDrained(run, idleRttMs, loadedPings, signal);
      return runLatencyPhase(
        this.options.serverUrl,
        count,
        signal,
        run.testOriginMs,
        this.#pingReporter(run, 'settledPings', count),
        this.options.pingTimeoutMs,
      ).catch((error: unknown) => {
        if (signal.aborted) throw error;
        return [];
      });
    });
    run.completedWeight += run.weights.settledPings;
    return pings;
  }

  /**
   * One direction's transfers, or why it has no figure (a `phase-failed` event says so at once). Its byte count
   * restarts from where it stood when the phase began whenever a pause makes the phase run again, so the totals count
   * each completed phase once.
   */
  async #bandwidthPhase(
    direction: 'download' | 'upload',
    run: RunProgress,
    idleRttMs: number,
    payload: Blob,
    uploadSockets: boolean,
  ): Promise<BandwidthOutput | { failure: DirectionFailure; bytes: number }> {
    const { options } = this;
    const bytesBefore = this.#bytes[direction];
    const outcome = await this.#phase((signal) => {
      this.#bytes[direction] = bytesBefore;
      return runBandwidthPhase({
        direction,
        options,
        signal,
        testOriginMs: run.testOriginMs,
        idleRttMs,
        payload,
        uploadSockets,
        onSample: (sample) => this.#emit('sample', sample),
        onProgress: (update) => {
          this.#bytes[direction] = bytesBefore + update.bytes;
          const phaseFraction = Math.min(
            1,
            Math.max(update.elapsedMs / update.budgetMs, update.bytes / options.maxBytesPerDirection),
          );
          this.#progress(direction, run.completedWeight + run.weights[direction] * phaseFraction, run.testOriginMs, {
            bitsPerSecond: update.bitsPerSecond,
            latencyMs: update.latencyMs,
            streams: update.streams,
          });
        },
      }).catch((error: unknown) => {
        if (error instanceof DirectionFailedError) return { failure: error.failure, bytes: error.usedBytes };
        throw error;
      });
    });
    run.completedWeight += run.weights[direction];
    this.#bytes[direction] = bytesBefore + outcome.bytes;
    if ('failure' in outcome) {
      this.#emit('phase-failed', { phase: direction, failure: outcome.failure });
      return outcome;
    }
    this.#emit('phase', { phase: direction, result: outcome.result });
    return outcome;
  }

  /** Runs one phase, re-running it after a pause; throws an AbortError once aborted. */
  async #phase<T>(run: (signal: AbortSignal) => Promise<T>): Promise<T> {
    for (;;) {
      if (this.#state === 'paused') await new Promise<void>((resolve) => (this.#wake = resolve));
      if (this.#state === 'aborted') throw new DOMException('speed test aborted', 'AbortError');
      const controller = new AbortController();
      this.#phaseController = controller;
      try {
        return await run(controller.signal);
      } catch (error) {
        if (!controller.signal.aborted) throw error;
        // Paused or aborted mid-phase: loop to wait for resume, or throw the abort.
      } finally {
        this.#phaseController = null;
      }
    }
  }

  #progress(
    phase: Phase,
    fraction: number,
    testOriginMs: number,
    current: { bitsPerSecond?: number | null; latencyMs?: number | null; streams?: number },
  ): void {
    this.#emit('progress', {
      phase,
      // Never 1 before the run has finished; never NaN (a progress bar throws on a non-finite value).
      fraction: Number.isFinite(fraction) ? Math.min(0.99, Math.max(0, fraction)) : 0,
      currentBitsPerSecond: current.bitsPerSecond ?? null,
      currentLatencyMs: current.latencyMs ?? null,
      streams: current.streams ?? 0,
      elapsedMs: performance.now() - testOriginMs,
      bytes: { ...this.#bytes },
    });
  }

  #visibilityChanged(): void {
    if (document.visibilityState === 'hidden' && this.#state === 'running') {
      this.#pausedByVisibility = true;
      this.pause();
    } else if (document.visibilityState === 'visible' && this.#pausedByVisibility) {
      this.resume();
    }
  }

  #setState(state: EngineState): void {
    this.#state = state;
    this.#emit('state', state);
  }

  #emit<K extends keyof SpeedTestEvents>(event: K, detail: SpeedTestEvents[K]): void {
    for (const listener of this.#listeners.get(event) ?? []) (listener as Listener<K>)(detail);
  }
}

/**
 * Packet loss through the server's TURN relay, or why it was not measured. A relay that is missing or unreachable
 * never fails the speed test: the other figures stand without it.
 */
async function measureLoss(
  options: Pick<SpeedTestOptions, 'serverUrl' | 'lossPackets' | 'pingTimeoutMs'>,
  relay: RelayCheck,
  slowerBitsPerSecond: number | null,
  signal: AbortSignal,
  onProgress: (fraction: number) => void,
): Promise<LossResult | string> {
  // Paced below the link's measured rate: on a slow link the default pace filled its queue and measured that.
  const { packets, packetIntervalMs } = lossPacing(options.lossPackets, slowerBitsPerSecond);
  // The check's answer: no relay stays no relay; credentials are asked for again once they may have aged (a run
  // paused in a hidden tab can outlast them).
  const turn =
    typeof relay.turn === 'string' || performance.now() - relay.atMs < reuseCredentialsMs
      ? relay.turn
      : await fetchTurnCredentials(options.serverUrl, signal, options.pingTimeoutMs);
  if (typeof turn === 'string') return turn;
  // Progress (and so the "Measuring packet loss." announcement) starts only once there is a relay to measure through.
  onProgress(0);
  try {
    return await runLossPhase({
      ...defaultLossPhase,
      packets,
      packetIntervalMs,
      turn,
      connectTimeoutMs: 10_000,
      signal,
      onProgress,
    });
  } catch (error) {
    if (signal.aborted) throw error;
    return `packet loss could not be measured: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** What `/turn-creds` answered after the idle pings (credentials, or why there is no relay), and when (ms). */
interface RelayCheck {
  readonly turn: Awaited<ReturnType<typeof fetchTurnCredentials>>;
  readonly atMs: number;
}

/**
 * How long the check's credentials are used (ms): fresh ones are fetched when the loss phase comes later than this
 * (a paused run, or a long path whose directions took up to five times their budget each); TURN REST credentials
 * live for minutes (this project's Worker issues them for 5).
 */
const reuseCredentialsMs = 60_000;

/** The lower of the measured download and upload rates (bit/s), null when neither direction has a figure. */
function slowerRate(bandwidth: BandwidthOutputs): number | null {
  const rates = [bandwidth.download, bandwidth.upload]
    .map((output) => output?.result.bitsPerSecond.value)
    .filter((value): value is number => value !== undefined && Number.isFinite(value) && value > 0);
  return rates.length > 0 ? Math.min(...rates) : null;
}

/** The result's parts from what the phases returned: samples of every phase in time order, intervals, loss. */
function resultParts(run: {
  startedAt: string;
  durationMs: number;
  startPings: RequestSample[];
  settledPings: RequestSample[];
  bandwidth: BandwidthOutputs;
  failures: DirectionFailures;
  lossOutcome: LossResult | string;
  totalBytes: { download: number; upload: number };
  options: SpeedTestOptions;
}): ResultParts {
  const { download, upload } = run.bandwidth;
  const { lossOutcome } = run;
  const samples = [
    ...run.startPings,
    ...run.settledPings,
    ...(download?.samples ?? []),
    ...(download?.loadedPings ?? []),
    ...(upload?.samples ?? []),
    ...(upload?.loadedPings ?? []),
  ].sort((a, b) => a.startMs - b.startMs);
  const loss = typeof lossOutcome === 'string' ? null : lossOutcome;
  // A figure puts back what losses held back across its window once the loss phase measured its direction, where
  // that applies (`holdBackApplies`: uploads over WebSockets). Only when the relay's two legs went one by UDP and one
  // by TCP: otherwise a direction's figure holds both directions' losses.
  const attributed = loss?.relayProtocols.udpPeer === 'udp' && loss.relayProtocols.tcpPeer === 'tcp';
  const figure = (
    direction: 'download' | 'upload',
    output: BandwidthOutput | undefined,
    lossPercent: number | undefined,
  ) =>
    output
      ? correctedForHoldBack(direction, output.result, attributed ? (lossPercent ?? null) : null, output.loadedPings)
      : null;
  return {
    startedAt: run.startedAt,
    durationMs: run.durationMs,
    idlePings: headlineIdlePings(samples),
    downloadLoadedPings: download?.loadedPings ?? [],
    uploadLoadedPings: upload?.loadedPings ?? [],
    download: figure('download', download, loss?.down.lossPct),
    upload: figure('upload', upload, loss?.up.lossPct),
    directionFailures: { ...run.failures },
    loss,
    lossNote: typeof lossOutcome === 'string' ? lossOutcome : null,
    samples,
    intervals: [...(download?.intervals ?? []), ...(upload?.intervals ?? [])],
    totalBytes: run.totalBytes,
    options: run.options,
  };
}
