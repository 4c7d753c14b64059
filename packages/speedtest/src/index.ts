export { csvColumns, csvRecords, headlineFlags, resultToCsv, samplesToCsv } from './csv';
export { SpeedTest } from './engine';
export { nextTask } from './next-task';
export { defaultOptions, resolveOptions } from './options';
export { describeMissing, missingParts } from './partial';
export { headlineIdlePings } from './phases/latency';
export { defaultLossPhase, lossPacketOverheadBytes } from './phases/loss';
export { minMeasuredBytes, noDataFailure } from './phases/no-data';
export { lossTimeFraction, progressWeights } from './progress-weights';
export { buildResult, latencyResult, roundTripsPerMinute } from './result';
export { type ConfidenceLevel, type Estimate, meanEstimate, medianEstimate } from './stats/confidence';
export { GoodputMeter } from './stats/goodput';
export {
  correctedForHoldBack,
  type HoldBackCorrection,
  heldBackMs,
  holdBackApplies,
  holdBackFactor,
} from './stats/hold-back';
export { type JitterFigures, jitter, jitterWithoutStalls, STALL_MS, withoutStalls } from './stats/jitter';
export {
  classify,
  type Experience,
  type QualityClass,
  type QualityOutcome,
  qualityThresholds,
  type Requirement,
} from './stats/quality';
export { decideRamp, nextRequestBytes } from './stats/ramp';
export { isStable, relativeSpread } from './stats/stability';
export { mean, median, percentile, type Summary, summarize } from './stats/summary';
export { parseServerTimingMs, requestTiming } from './timing';
export type * from './types';
