import type { DirectionFailure } from '../types';

type Direction = 'download' | 'upload';

/**
 * Thrown by a bandwidth phase that ran to its end without a figure (`DirectionFailure`). The engine records it and
 * goes on: a proxy that blocks uploads leaves the download and the latency measured.
 */
export class DirectionFailedError extends Error {
  readonly direction: Direction;
  readonly failure: DirectionFailure;
  /** Bytes the phase used, what the run's data total counts: for uploads every byte sent, confirmed or not (bytes). */
  readonly usedBytes: number;

  constructor(direction: Direction, failure: DirectionFailure, usedBytes: number, options?: ErrorOptions) {
    super(failure.message, options);
    this.name = 'DirectionFailedError';
    this.direction = direction;
    this.failure = failure;
    this.usedBytes = usedBytes;
  }
}

/** Pure: a failed request's message (an Error's own, anything else as text). */
export const failureMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/**
 * Pure: the message a run fails with when none of the directions it asked for was measured, or null while one was
 * (or may still be). Each failed direction's message in the order they ran, so a run of one direction reads as before
 * ("the server sent no data in 4.0 s (download)").
 */
export function nothingMeasuredMessage(
  directions: readonly Direction[],
  failures: Readonly<Record<Direction, DirectionFailure | null>>,
): string | null {
  const ran = (['download', 'upload'] as const).filter((direction) => directions.includes(direction));
  if (ran.length === 0 || ran.some((direction) => failures[direction] === null)) return null;
  return ran.map((direction) => failures[direction]?.message).join('; ');
}
