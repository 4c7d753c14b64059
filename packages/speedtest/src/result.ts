import type { LossResult } from './phases/loss';
import { type Estimate, medianEstimate } from './stats/confidence';
import { jitterWithoutStalls } from './stats/jitter';
import { classify } from './stats/quality';
import type {
  BandwidthResult,
  DirectionFailure,
  GoodputInterval,
  PartialRun,
  RequestSample,
  SpeedTestOptions,
  SpeedTestResult,
} from './types';

export interface ResultParts {
  startedAt: string;
  durationMs: number;
  idlePings: RequestSample[];
  downloadLoadedPings: RequestSample[];
  uploadLoadedPings: RequestSample[];
  download: BandwidthResult | null;
  upload: BandwidthResult | null;
  /** Directions that ran without a figure, and why; absent = none. */
  directionFailures?: { download: DirectionFailure | null; upload: DirectionFailure | null };
  loss: LossResult | null;
  lossNote: string | null;
  samples: RequestSample[];
  intervals: GoodputInterval[];
  totalBytes: { download: number; upload: number };
  options: SpeedTestOptions;
  /** Set when the run ended early after some phases had finished (`SpeedTest.partialResult`). */
  partial?: PartialRun | null;
}

const pingsOf = (samples: readonly RequestSample[]) => samples.map((sample) => sample.pingMs);
const loadedEstimate = (samples: readonly RequestSample[]): Estimate | null =>
  samples.length > 0 ? medianEstimate(pingsOf(samples)) : null;

/** Round trips per minute: how many sequential exchanges fit in a minute at this latency. */
export const roundTripsPerMinute = (latencyMs: number | null | undefined): number | null =>
  latencyMs && latencyMs > 0 ? 60_000 / latencyMs : null;

/** Idle latency (median), jitter (without stalled pings), and latency under each direction's load (median). */
export function latencyResult(
  idlePings: readonly RequestSample[],
  downloadLoadedPings: readonly RequestSample[],
  uploadLoadedPings: readonly RequestSample[],
): SpeedTestResult['latency'] {
  const { jitterMs, stalledPings } = jitterWithoutStalls(pingsOf(idlePings));
  return {
    idleMs: medianEstimate(pingsOf(idlePings)),
    jitterMs,
    stalledPings,
    downloadLoadedMs: loadedEstimate(downloadLoadedPings),
    uploadLoadedMs: loadedEstimate(uploadLoadedPings),
  };
}

/** Pure: assembles the typed result from the phases' raw output. */
export function buildResult(parts: ResultParts): SpeedTestResult {
  const latency = latencyResult(parts.idlePings, parts.downloadLoadedPings, parts.uploadLoadedPings);
  const { idleMs, jitterMs, downloadLoadedMs, uploadLoadedMs } = latency;
  const allLoaded = loadedEstimate([...parts.downloadLoadedPings, ...parts.uploadLoadedPings]);
  const worstLoaded = Math.max(downloadLoadedMs?.value ?? -1, uploadLoadedMs?.value ?? -1);
  return {
    startedAt: parts.startedAt,
    durationMs: parts.durationMs,
    latency,
    download: parts.download,
    upload: parts.upload,
    directionFailures: parts.directionFailures ?? { download: null, upload: null },
    rpm: {
      download: roundTripsPerMinute(downloadLoadedMs?.value),
      upload: roundTripsPerMinute(uploadLoadedMs?.value),
      overall: roundTripsPerMinute(allLoaded?.value),
    },
    loss: parts.loss,
    lossNote: parts.lossNote,
    quality: classify({
      downloadBitsPerSecond: parts.download?.bitsPerSecond.value ?? null,
      uploadBitsPerSecond: parts.upload?.bitsPerSecond.value ?? null,
      idleLatencyMs: Number.isFinite(idleMs.value) ? idleMs.value : null,
      jitterMs,
      loadedLatencyMs: worstLoaded >= 0 ? worstLoaded : null,
      lossPct: parts.loss ? Math.max(parts.loss.up.lossPct, parts.loss.down.lossPct) : null,
    }),
    totalBytes: parts.totalBytes,
    samples: parts.samples,
    intervals: parts.intervals,
    options: parts.options,
    partial: parts.partial ?? null,
  };
}
