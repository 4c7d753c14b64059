import type { SpeedTestOptions } from '@speedkit/speedtest';
import { formatBytes } from './format';

/** What the page decided about starting on its own, and why. */
export type AutostartDecision = 'start' | 'off-by-query' | 'save-data';

/** Pure: a page opened with `autostart=0`, or on a connection whose user asked to save data, waits for a click. */
export function autostartDecision(autostartQuery: boolean, saveData: boolean | undefined): AutostartDecision {
  if (!autostartQuery) return 'off-by-query';
  return saveData ? 'save-data' : 'start';
}

/** Pure: the most one run may move, from the per-direction budget and the directions measured (bytes). */
export const maxTestBytes = (options: Pick<SpeedTestOptions, 'maxBytesPerDirection' | 'directions'>) =>
  options.maxBytesPerDirection * options.directions.length;

/** Pure: the sentence above the results, shown before any byte moves. */
export function dataNotice(decision: AutostartDecision, options: SpeedTestOptions): string {
  const budget = `up to ${formatBytes(maxTestBytes(options))} (${formatBytes(options.maxBytesPerDirection)} per direction, ${Math.round(options.maxDurationPerDirectionMs / 1000)} s at most each)`;
  if (decision === 'save-data') {
    return `Data saver is on, so the test did not start by itself. A run uses ${budget}. Press Start test when you are ready.`;
  }
  if (decision === 'off-by-query') return `A run uses ${budget}. Press Start test when you are ready.`;
  return `This test starts by itself and uses ${budget}; fast links use the most. Press Stop at any time.`;
}
