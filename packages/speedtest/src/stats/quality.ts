/** Quality classes from best to worst, as the UI names them. */
export type QualityClass = 'great' | 'good' | 'average' | 'poor' | 'bad';
export type Experience = 'streaming' | 'gaming' | 'videoCalls';
/** A class, or 'not-measured' when a figure the experience needs (other than packet loss) was not measured. */
export type QualityOutcome = QualityClass | 'not-measured';

/** The measured figures a class depends on; null when a phase did not run. */
export interface QualityInput {
  downloadBitsPerSecond: number | null;
  uploadBitsPerSecond: number | null;
  idleLatencyMs: number | null;
  jitterMs: number | null;
  /** The worse of download- and upload-loaded latency. */
  loadedLatencyMs: number | null;
  /** The worse of packet loss up and down (percent); null when not measured (no TURN relay). Optional for callers
   * from before loss was measured. */
  lossPct?: number | null;
}

/** Minimum rates and maximum delays a class requires; absent = not considered. */
export interface Requirement {
  minDownloadBitsPerSecond?: number;
  minUploadBitsPerSecond?: number;
  maxIdleLatencyMs?: number;
  maxJitterMs?: number;
  maxLoadedLatencyMs?: number;
  /** Most packet loss, the worse direction (percent). Only applied when loss was measured. */
  maxLossPct?: number;
}

const mbps = 1e6;

/**
 * Thresholds per experience, best class first (a class needs every one of its requirements). Streaming follows
 * common video-service guidance (25 Mbps 4K, 15 Mbps HD, 5 Mbps SD); gaming and calls follow the ITU-T G.114
 * 150 ms one-way budget and typical conferencing needs (≈ 4 Mbps each way for HD group video). Packet loss (the
 * worse direction) follows the common rule for real-time media: under 1 % is unnoticed, a few percent is audible and
 * visible, 5 % breaks calls and games up; streaming runs over TCP, which hides loss at some cost in rate, so it
 * tolerates more. Loss counts only when it was measured: without a TURN relay it is left out, not failed.
 */
export const qualityThresholds: Record<Experience, Record<Exclude<QualityClass, 'bad'>, Requirement>> = {
  streaming: {
    great: { minDownloadBitsPerSecond: 25 * mbps, maxLoadedLatencyMs: 100, maxLossPct: 1 },
    good: { minDownloadBitsPerSecond: 15 * mbps, maxLoadedLatencyMs: 200, maxLossPct: 2 },
    average: { minDownloadBitsPerSecond: 5 * mbps, maxLoadedLatencyMs: 400, maxLossPct: 5 },
    poor: { minDownloadBitsPerSecond: 1.5 * mbps },
  },
  gaming: {
    great: { maxIdleLatencyMs: 20, maxJitterMs: 5, maxLoadedLatencyMs: 50, maxLossPct: 0.5 },
    good: { maxIdleLatencyMs: 40, maxJitterMs: 10, maxLoadedLatencyMs: 100, maxLossPct: 1 },
    average: { maxIdleLatencyMs: 60, maxJitterMs: 20, maxLoadedLatencyMs: 200, maxLossPct: 2 },
    poor: { maxIdleLatencyMs: 100, maxJitterMs: 40, maxLoadedLatencyMs: 400, maxLossPct: 5 },
  },
  videoCalls: {
    great: {
      minDownloadBitsPerSecond: 4 * mbps,
      minUploadBitsPerSecond: 4 * mbps,
      maxIdleLatencyMs: 50,
      maxJitterMs: 10,
      maxLoadedLatencyMs: 100,
      maxLossPct: 0.5,
    },
    good: {
      minDownloadBitsPerSecond: 2 * mbps,
      minUploadBitsPerSecond: 2 * mbps,
      maxIdleLatencyMs: 100,
      maxJitterMs: 20,
      maxLoadedLatencyMs: 200,
      maxLossPct: 1,
    },
    average: {
      minDownloadBitsPerSecond: 1 * mbps,
      minUploadBitsPerSecond: 1 * mbps,
      maxIdleLatencyMs: 150,
      maxJitterMs: 30,
      maxLoadedLatencyMs: 300,
      maxLossPct: 3,
    },
    poor: {
      minDownloadBitsPerSecond: 0.5 * mbps,
      minUploadBitsPerSecond: 0.5 * mbps,
      maxIdleLatencyMs: 300,
      maxJitterMs: 50,
      maxLoadedLatencyMs: 500,
      maxLossPct: 5,
    },
  },
};

const atLeast = (value: number | null, min: number | undefined) =>
  min === undefined || (value !== null && value >= min);
const atMost = (value: number | null, max: number | undefined) => max === undefined || (value !== null && value <= max);

function meets(input: QualityInput, requirement: Requirement): boolean {
  return (
    atLeast(input.downloadBitsPerSecond, requirement.minDownloadBitsPerSecond) &&
    atLeast(input.uploadBitsPerSecond, requirement.minUploadBitsPerSecond) &&
    atMost(input.idleLatencyMs, requirement.maxIdleLatencyMs) &&
    atMost(input.jitterMs, requirement.maxJitterMs) &&
    atMost(input.loadedLatencyMs, requirement.maxLoadedLatencyMs) &&
    // Unlike the other figures, loss that was not measured is left out rather than failed.
    (input.lossPct === null || input.lossPct === undefined || atMost(input.lossPct, requirement.maxLossPct))
  );
}

/** Whether any class of the experience needs a figure that is null (loss aside: it is left out when unmeasured). */
function needsMissingFigure(input: QualityInput, levels: Record<string, Requirement>): boolean {
  const needs = (key: keyof Requirement) => Object.values(levels).some((requirement) => requirement[key] !== undefined);
  return (
    (needs('minDownloadBitsPerSecond') && input.downloadBitsPerSecond === null) ||
    (needs('minUploadBitsPerSecond') && input.uploadBitsPerSecond === null) ||
    (needs('maxIdleLatencyMs') && input.idleLatencyMs === null) ||
    (needs('maxJitterMs') && input.jitterMs === null) ||
    (needs('maxLoadedLatencyMs') && input.loadedLatencyMs === null)
  );
}

/**
 * The best class whose every requirement is met. An experience that needs a figure that was not measured (a
 * direction left out or cut short) is 'not-measured': calling it "bad" would blame the link for what the test
 * skipped.
 */
export function classify(input: QualityInput): Record<Experience, QualityOutcome> {
  const classOf = (experience: Experience): QualityOutcome => {
    const levels = qualityThresholds[experience];
    if (needsMissingFigure(input, levels)) return 'not-measured';
    for (const level of ['great', 'good', 'average', 'poor'] as const) {
      if (meets(input, levels[level])) return level;
    }
    return 'bad';
  };
  return { streaming: classOf('streaming'), gaming: classOf('gaming'), videoCalls: classOf('videoCalls') };
}
