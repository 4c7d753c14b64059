/**
 * Jitter as the mean absolute difference between consecutive latency samples, in the order they were taken
 * (the anchor's and RFC 3550's idea, without RFC 3550's exponential smoothing). Null for fewer than two samples.
 */
export function jitter(latenciesMs: readonly number[]): number | null {
  if (latenciesMs.length < 2) return null;
  let total = 0;
  for (let index = 1; index < latenciesMs.length; index++) {
    total += Math.abs((latenciesMs[index] as number) - (latenciesMs[index - 1] as number));
  }
  return total / (latenciesMs.length - 1);
}
