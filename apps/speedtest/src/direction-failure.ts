import {
  type DirectionFailure,
  type Experience,
  qualityThresholds,
  type Requirement,
  type SpeedTestResult,
} from '@speedkit/speedtest';
import { formatBytes } from './format';

type Direction = 'download' | 'upload';
const directions = ['download', 'upload'] as const;

/** The directions of a result that ran without a figure, with why, download first. */
export function failedDirections(result: SpeedTestResult): [Direction, DirectionFailure][] {
  const failures = result.directionFailures;
  return directions.flatMap((direction) => {
    const failure = failures?.[direction];
    return failure ? [[direction, failure] as [Direction, DirectionFailure]] : [];
  });
}

/** Pure: a failed direction's card note; short enough for one line of a phone's card. */
export const failureCardNote = (failure: DirectionFailure): string =>
  ({
    'no-data': 'failed: no data got through',
    compressed: 'failed: arrived compressed',
    error: 'failed: its requests failed',
  })[failure.reason];

const capitalized = (direction: Direction) => (direction === 'download' ? 'Download' : 'Upload');

/**
 * Pure: one sentence on a failed direction for the status line and the details panel: what happened (the engine's
 * message), what commonly causes it, and that the other figures stand. Blocked uploads are the usual case: corporate
 * proxies and some browser extensions hold or refuse POST bodies while downloads pass.
 */
export function failureSentence(direction: Direction, failure: DirectionFailure): string {
  // The engine's message may end in a question ("… (CORS)?"): no full stop after it.
  const message = /[.?!]$/.test(failure.message) ? failure.message : `${failure.message}.`;
  // A compressed download's message already names its cause and what to change; the others get the usual suspects.
  const suspects = 'a proxy, firewall or browser extension may be';
  const check = {
    'no-data': `; ${suspects} holding ${direction}s back`,
    error: `; ${suspects} blocking ${direction}s`,
    compressed: '',
  }[failure.reason];
  return `${capitalized(direction)} failed: ${message} There is no ${direction} figure${check}. The other figures stand.`;
}

/** Pure: the status line of a finished run: time and data used, then each failed direction. */
export function finishedStatus(result: SpeedTestResult): string {
  const bytes = formatBytes(result.totalBytes.download + result.totalBytes.upload);
  const done = `Done in ${(result.durationMs / 1000).toFixed(1)} s, ${bytes} used.`;
  return [done, ...failedDirections(result).map(([direction, failure]) => failureSentence(direction, failure))].join(
    ' ',
  );
}

const rateKey: Record<Direction, keyof Requirement> = {
  download: 'minDownloadBitsPerSecond',
  upload: 'minUploadBitsPerSecond',
};

/**
 * Pure: why an experience's class is unknown, e.g. "upload failed", when it needs the rate of a direction that
 * failed; null otherwise (a class, or not measured because the run left the direction out).
 */
export function qualityUnknownBecause(result: SpeedTestResult, experience: Experience): string | null {
  if (result.quality[experience] !== 'not-measured') return null;
  const levels = Object.values(qualityThresholds[experience]);
  const failed = failedDirections(result)
    .map(([direction]) => direction)
    .filter((direction) => levels.some((requirement) => requirement[rateKey[direction]] !== undefined));
  return failed.length > 0 ? `${failed.join(' and ')} failed` : null;
}
