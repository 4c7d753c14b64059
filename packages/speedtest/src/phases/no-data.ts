/**
 * Fewest bytes a direction must move to count as measured (bytes): 10 kB is 80 kbit, under 7 kbit/s over the default
 * 12 s, far below any link worth a rate. Fewer means the server or a middlebox held the data back, and a rate of
 * "0 kbps" would read as a (terrible) measurement of the link instead of a fault.
 */
export const minMeasuredBytes = 10_000;

/**
 * Pure: why a finished phase is no measurement, or null when it moved enough. The floor never exceeds the
 * direction's byte budget, so a deliberately tiny budget is not a fault.
 */
export function noDataFailure(
  direction: 'download' | 'upload',
  movedBytes: number,
  durationMs: number,
  maxBytesPerDirection: number,
): string | null {
  if (movedBytes >= Math.min(minMeasuredBytes, maxBytesPerDirection)) return null;
  const seconds = (durationMs / 1000).toFixed(1);
  const moved = movedBytes > 0 ? `only ${movedBytes} bytes` : 'no data';
  return direction === 'download'
    ? `the server sent ${moved} in ${seconds} s (download)`
    : `the server received ${moved} in ${seconds} s (upload)`;
}
