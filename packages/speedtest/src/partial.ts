import type { MissingPart, SpeedTestOptions } from './types';

/** What of a run had finished when it ended: the raw material of a partial result. */
export interface FinishedParts {
  /** The idle pings after the download were taken (or the run measures no download, so there are none to take). */
  settledIdlePings: boolean;
  download: boolean;
  upload: boolean;
  /** The loss phase ran to an outcome (a figure, or a reason it could not be measured). */
  loss: boolean;
}

/**
 * Pure: the parts a run asked for that had not finished, in the order the run takes them. Directions and loss the
 * options left out are not missing: they were never part of the run.
 */
export function missingParts(
  options: Pick<SpeedTestOptions, 'directions' | 'packetLoss'>,
  finished: FinishedParts,
): MissingPart[] {
  const missing: MissingPart[] = [];
  const wants = (direction: 'download' | 'upload') => options.directions.includes(direction);
  if (wants('download') && !finished.download) missing.push('download');
  if (wants('download') && !finished.settledIdlePings) missing.push('settled-idle-pings');
  if (wants('upload') && !finished.upload) missing.push('upload');
  if (options.packetLoss && !finished.loss) missing.push('loss');
  return missing;
}

const partNames: Record<MissingPart, string> = {
  download: 'download',
  'settled-idle-pings': 'idle pings after the download',
  upload: 'upload',
  loss: 'packet loss',
};

/** Pure: the missing parts as words, e.g. "upload and packet loss". */
export function describeMissing(missing: readonly MissingPart[]): string {
  const names = missing.map((part) => partNames[part]);
  if (names.length <= 1) return names[0] ?? 'nothing';
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
