/** Packet loss of one direction: what was sent, what arrived, and a 95 % interval on the loss rate. */
export interface LossEstimate {
  /** Packets sent (count). */
  sent: number;
  /** Packets that arrived, each sequence number counted once (count). */
  received: number;
  /** Lost share of the packets sent (percent, 0..100). */
  lossPct: number;
  /** 95 % Wilson score interval on `lossPct` (percent). */
  lowPct: number;
  highPct: number;
}

/** z for a two-sided 95 % interval. */
const z95 = 1.959963984540054;

/**
 * Wilson score interval for a binomial proportion: unlike the normal approximation it stays inside [0, 1] and is
 * not zero-width when no packet (or every packet) was lost, which is the common case for loss.
 */
export function wilsonInterval(successes: number, trials: number, z = z95): { low: number; high: number } {
  if (trials <= 0) return { low: 0, high: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const halfWidth = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  // At p̂ = 0 (or 1) the bound is exactly 0 (or 1); the formula leaves rounding residue there.
  return {
    low: successes <= 0 ? 0 : Math.max(0, centre - halfWidth),
    high: successes >= trials ? 1 : Math.min(1, centre + halfWidth),
  };
}

/**
 * Pure: loss from the sequence numbers that arrived out of `sent` (0..sent-1). Duplicates and numbers outside the
 * range count once or not at all, so a misbehaving path never shows less than 0 % loss.
 */
export function lossEstimate(sent: number, receivedSequences: Iterable<number>): LossEstimate {
  const seen = new Set<number>();
  for (const sequence of receivedSequences) {
    if (Number.isInteger(sequence) && sequence >= 0 && sequence < sent) seen.add(sequence);
  }
  const lost = sent - seen.size;
  const interval = wilsonInterval(lost, sent);
  return {
    sent,
    received: seen.size,
    lossPct: sent > 0 ? (100 * lost) / sent : 0,
    lowPct: 100 * interval.low,
    highPct: 100 * interval.high,
  };
}
