import type { LossResult } from './phases/loss';
import type { Estimate } from './stats/confidence';
import type { HoldBackCorrection } from './stats/hold-back';
import type { Experience, QualityOutcome } from './stats/quality';

/**
 * Options of one run; every field has a default (see `defaultOptions`). An invalid value (wrong type, NaN, out of
 * range, an unknown option) makes the constructor throw a TypeError or RangeError naming it (`resolveOptions`).
 */
export interface SpeedTestOptions {
  /**
   * Base URL of the endpoints (`<base>/__down`, `<base>/__up`, `<base>/__up-ws`, `<base>/turn-creds`): '' = the
   * page's own origin, an absolute http(s) URL (cross-origin: the server must allow the page's origin by CORS), or a
   * path on the page's origin ('/speed'). Trailing slashes are dropped.
   */
  serverUrl: string;
  /** Idle pings after the download phase, which make the idle latency (count); half as many run before any transfer. */
  idlePings: number;
  /** Most parallel connections per direction (count). HTTP/1.1 browsers allow 6 per host; one is left for pings. */
  maxStreams: number;
  /** Length of one goodput interval (ms). */
  intervalMs: number;
  /** Intervals that must agree for goodput to count as stable (count). */
  stableIntervals: number;
  /** Allowed relative spread of those intervals, and the gain that justifies more streams (fraction, 0.05 = 5%). */
  stableTolerance: number;
  /** Bytes one direction may use before it stops, stable or not (bytes). */
  maxBytesPerDirection: number;
  /**
   * Time one direction may take before it stops, stable or not (ms); on a path whose idle round trip is longer than
   * this over `minRoundTripsPerDirection`, that many round trips instead (at most five times this).
   */
  maxDurationPerDirectionMs: number;
  /**
   * Round trips one direction may always take (count; 0 = `maxDurationPerDirectionMs` is a hard limit): on a long path
   * (a geostationary satellite's 600 ms) TCP needs several of them to open its window before a rate can be measured.
   */
  minRoundTripsPerDirection: number;
  /** A request is sized to last about this long at the stream's current rate (ms). */
  targetRequestMs: number;
  /** Size of each stream's first request, and the smallest request (bytes). */
  minRequestBytes: number;
  /** Largest download request (bytes); stays under the Worker's cap. */
  maxDownloadRequestBytes: number;
  /** Largest upload request (bytes); the body is held in memory. */
  maxUploadRequestBytes: number;
  /** Gap between the starts of two loaded-latency pings (ms). */
  loadedPingIntervalMs: number;
  /**
   * An idle ping (or the `/turn-creds` request) with no answer within this long is given up (ms): a server that
   * stops answering ends the pings there (the run fails when none came back) instead of holding the run forever.
   */
  pingTimeoutMs: number;
  /** Directions to measure, any of the two or none (latency only); download always runs first. */
  directions: ReadonlyArray<'download' | 'upload'>;
  /** Pause while the tab is hidden (a background tab is throttled and would skew every figure). */
  pauseWhenHidden: boolean;
  /** Measure packet loss through the server's TURN relay (`/turn-creds`) after the transfers. */
  packetLoss: boolean;
  /** Packets sent each way by the packet-loss phase (count). */
  lossPackets: number;
  /**
   * How uploads travel: 'websocket' = over a WebSocket per stream to `/__up-ws` (one connection that never pauses),
   * HTTP POST requests to `/__up` when the socket fails; 'http' = always POST requests; 'auto' = sockets on long paths
   * that are not too fast for them (`socketUploadsWanted`), else requests.
   */
  uploadTransport: 'auto' | 'http' | 'websocket';
}

export type Phase = 'latency' | 'download' | 'upload' | 'loss';
export type LoadCondition = 'idle' | 'download' | 'upload';

/** One request of the test: a CSV row. */
export interface RequestSample {
  kind: 'latency' | 'download' | 'upload';
  /** Payload bytes asked for (0 for pings). */
  bytes: number;
  /** Bytes the client read (downloads) or the server reported receiving (uploads); null when unknown. */
  receivedBytes: number | null;
  /** Request start, ms since the test started. */
  startMs: number;
  /** Transfer time used for the rate; the round trip for pings (ms). */
  durationMs: number;
  bitsPerSecond: number | null;
  ttfbMs: number;
  /** Server processing time from Server-Timing (ms); null when absent. */
  serverMs: number | null;
  /** TTFB minus server time (ms). */
  pingMs: number;
  /** Streams running in this direction when the request started (count). */
  parallelStreams: number;
  /** Whether the link was idle or loaded by a transfer while this request ran. */
  load: LoadCondition;
  /**
   * Where the timing came from: the request's resource-timing entry, the engine's own clock, or (WebSocket upload
   * rows) the server's byte reports, which have no TTFB or round trip: `ttfbMs` and `pingMs` are 0 there and the CSV
   * leaves them empty.
   */
  timingSource: 'resource-timing' | 'clock' | 'server-report';
}

/** Aggregate goodput of one interval of a bandwidth phase. */
export interface GoodputInterval {
  direction: 'download' | 'upload';
  /** ms since the test started. */
  startMs: number;
  /**
   * Length of the interval (ms): `intervalMs`, or two idle round trips on a long path (`pathTiming`). Absent in
   * results saved before it existed (their intervals lasted `options.intervalMs`, short paths only).
   */
  durationMs?: number;
  bitsPerSecond: number;
  streams: number;
}

export type StopReason = 'stable' | 'step-limit' | 'bytes' | 'time';

export interface BandwidthResult {
  bitsPerSecond: Estimate;
  /**
   * The goodput values (bit/s) `bitsPerSecond` is the mean of: a window of `intervals` (the phase's average rate when
   * no interval closed). Lets the CSV mark the intervals behind the headline.
   */
  headlineBasisBitsPerSecond: number[];
  /**
   * `intervals`: the headline is the mean of interval values (marked `in_headline` in the CSV); `phase-average`: the
   * phase ended before any interval of its last step closed, and its average rate (bytes × 8 / duration) stands in.
   */
  headlineSource: 'intervals' | 'phase-average';
  /**
   * When the window of `intervals` behind the headline ran, on the test clock (ms since the test began, as the
   * samples' `startMs`). Absent for a `phase-average` headline and in results saved before it existed.
   */
  headlineWindowMs?: { startMs: number; endMs: number };
  /**
   * Present when the headline puts back what losses held back as the loaded round trip grew across that window
   * (stats/hold-back.ts): uploads over WebSockets only, with packet loss measured up. `bitsPerSecond` is the
   * corrected figure.
   */
  holdBack?: HoldBackCorrection;
  /** Streams in use when the phase finished (count). */
  streams: number;
  stopReason: StopReason;
  /** Bytes this direction moved, counted by the client (bytes). */
  clientBytes: number;
  /** Bytes the server reported receiving (uploads only; null for downloads). */
  serverBytes: number | null;
  durationMs: number;
  /**
   * How the streams moved their bytes: HTTP requests, WebSockets (uploads, `uploadTransport`), or both (a socket
   * failed and later streams used HTTP). Absent in results saved before it existed.
   */
  transport?: 'http' | 'websocket' | 'mixed';
  /**
   * Uploads only, present when true: the server read the upload bodies from copies a proxy had taken in whole first
   * (nginx buffers request bodies by default), so its read times said nothing of the link and each request's bytes
   * were spread over the request instead (stats/upload-spans.ts `bufferedCopyVerdict`).
   */
  bufferedByProxy?: true;
}

/**
 * Why a direction the run asked for has no figure although its phase ran to its end. The rest of the run stands:
 * a proxy or a browser extension that holds back or blocks uploads says nothing about the download or the latency.
 */
export interface DirectionFailure {
  /**
   * `no-data`: the direction moved fewer than `minMeasuredBytes` (10 kB), so a rate would blame the link for a server,
   * proxy, firewall or extension that held the bytes back; `error`: a request failed (the network or something in the
   * browser refused it, an HTTP error status, an upload socket that closed early); `compressed`: a download arrived
   * with a content coding (a proxy or CDN rule compressed the test data), so the bytes counted never crossed the link.
   */
  reason: 'no-data' | 'error' | 'compressed';
  /** What happened, e.g. "the server received no data in 4.0 s (upload)" or "403 from https://…/__up". */
  message: string;
  /** Bytes the direction had moved when it failed, as its goodput meter counted them (bytes). */
  bytes: number;
  /** How long the phase ran before it failed (ms). */
  durationMs: number;
}

export interface SpeedTestResult {
  startedAt: string;
  durationMs: number;
  latency: {
    idleMs: Estimate;
    /** Mean |difference| of consecutive idle pings, the stalled ones left out (ms). */
    jitterMs: number | null;
    /** Idle pings at least `STALL_MS` (200 ms) slower than their median: a lost packet resent by TCP; not in jitter. */
    stalledPings: number;
    downloadLoadedMs: Estimate | null;
    uploadLoadedMs: Estimate | null;
  };
  /** Null when the direction was not measured: left out by `directions`, cut short, or failed (`directionFailures`). */
  download: BandwidthResult | null;
  upload: BandwidthResult | null;
  /**
   * Per direction, why it has no figure although it ran (null when it has one or was not run). A run whose every
   * requested direction failed rejects `start()` instead (its `partialResult()` carries these). Absent in results
   * saved before it existed.
   */
  directionFailures?: { download: DirectionFailure | null; upload: DirectionFailure | null };
  /** Round trips per minute under load (60000 / loaded latency ms), per direction and over all loaded pings. */
  rpm: { download: number | null; upload: number | null; overall: number | null };
  /** Packet loss up and down through the TURN relay; null when not measured (`lossNote` says why). */
  loss: LossResult | null;
  lossNote: string | null;
  /** Per experience: its class, or 'not-measured' when a figure it needs was not measured (e.g. no download). */
  quality: Record<Experience, QualityOutcome>;
  /** Every byte sent and received, including aborted requests (bytes). */
  totalBytes: { download: number; upload: number };
  samples: RequestSample[];
  intervals: GoodputInterval[];
  options: SpeedTestOptions;
  /**
   * Set when the run ended early (Stop or a failure) after some phases had finished: the result holds those phases
   * only. Null for a finished run. Absent in results saved before it existed.
   */
  partial?: PartialRun | null;
}

/**
 * What a partial result lacks. `settled-idle-pings`: the idle pings after the download were not taken, so the idle
 * latency and jitter come from the pings at the start only.
 */
export type MissingPart = 'settled-idle-pings' | 'download' | 'upload' | 'loss';

/** Why a result is partial, and what it lacks. */
export interface PartialRun {
  reason: 'stopped' | 'failed';
  /** The failure's message; null after Stop. */
  message: string | null;
  missing: MissingPart[];
}

export interface ProgressEvent {
  phase: Phase;
  /** 0..1 of the whole test, for a progress bar. */
  fraction: number;
  /** Latest goodput interval or ping (bit/s or ms). */
  currentBitsPerSecond: number | null;
  currentLatencyMs: number | null;
  streams: number;
  elapsedMs: number;
  bytes: { download: number; upload: number };
}

export type EngineState = 'ready' | 'running' | 'paused' | 'finished' | 'aborted' | 'failed';

export interface SpeedTestEvents {
  progress: ProgressEvent;
  sample: RequestSample;
  /**
   * A phase's figures, typed by `phase` (narrow on it to read `result`). Latency comes twice when the download is
   * measured: first from the start pings with `provisional: true` (the idle latency proper is taken after the
   * download), then from the settled pings. The loss phase's result arrives with `finish` only.
   */
  phase:
    | { phase: 'latency'; result: SpeedTestResult['latency']; provisional: boolean }
    | { phase: 'download' | 'upload'; result: BandwidthResult; provisional?: undefined };
  /**
   * A direction that ran but has no figure (`DirectionFailure`); the run goes on with the next phase unless no
   * requested direction was measured, in which case `error` follows.
   */
  'phase-failed': { phase: 'download' | 'upload'; failure: DirectionFailure };
  state: EngineState;
  finish: SpeedTestResult;
  error: Error;
}
