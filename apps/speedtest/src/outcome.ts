import { describeMissing, type SpeedTestResult } from '@speedkit/speedtest';

/**
 * Pure: the status line after Stop. Names what the partial result lacks, and mentions crossed-out figures only when
 * some card is crossed out (saying so over a page of final figures sent people looking for one).
 */
export function stoppedStatus(partial: SpeedTestResult | null, crossedOutCards: number): string {
  const crossed = crossedOutCards > 0 ? ' Crossed-out figures are not results.' : '';
  if (!partial?.partial) return `Stopped before any figure was final.${crossed}`;
  return `Stopped: the finished phases are a partial result (not measured: ${describeMissing(partial.partial.missing)}).${crossed}`;
}

/** Pure: what a failure's status line adds when finished phases are kept as a partial result. */
export function failedPartialNote(partial: SpeedTestResult | null): string {
  if (!partial?.partial) return '';
  return ` The phases that finished are kept as a partial result (not measured: ${describeMissing(partial.partial.missing)}).`;
}
