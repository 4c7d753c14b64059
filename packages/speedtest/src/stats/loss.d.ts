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
/**
 * Wilson score interval for a binomial proportion: unlike the normal approximation it stays inside [0, 1] and is
 * not zero-width when no packet (or every packet) was lost, which is the common case for loss.
 */
export declare function wilsonInterval(successes: number, trials: number, z?: number): {
    low: number;
    high: number;
};
/**
 * Pure: loss from the sequence numbers that arrived out of `sent` (0..sent-1). Duplicates and numbers outside the
 * range count once or not at all, so a misbehaving path never shows less than 0 % loss.
 */
export declare function lossEstimate(sent: number, receivedSequences: Iterable<number>): LossEstimate;
