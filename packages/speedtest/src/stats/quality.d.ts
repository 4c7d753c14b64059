/** Quality classes from best to worst, as the UI names them. */
export type QualityClass = 'great' | 'good' | 'average' | 'poor' | 'bad';
export type Experience = 'streaming' | 'gaming' | 'videoCalls';
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
/**
 * Thresholds per experience, best class first (a class needs every one of its requirements). Streaming follows
 * common video-service guidance (25 Mbps 4K, 15 Mbps HD, 5 Mbps SD); gaming and calls follow the ITU-T G.114
 * 150 ms one-way budget and typical conferencing needs (≈ 4 Mbps each way for HD group video). Packet loss (the
 * worse direction) follows the common rule for real-time media: under 1 % is unnoticed, a few percent is audible and
 * visible, 5 % breaks calls and games up; streaming runs over TCP, which hides loss at some cost in rate, so it
 * tolerates more. Loss counts only when it was measured: without a TURN relay it is left out, not failed.
 */
export declare const qualityThresholds: Record<Experience, Record<Exclude<QualityClass, 'bad'>, Requirement>>;
export declare function meets(input: QualityInput, requirement: Requirement): boolean;
/** The best class whose every requirement is met; a figure that was not measured fails the requirements on it. */
export declare function classify(input: QualityInput): Record<Experience, QualityClass>;
