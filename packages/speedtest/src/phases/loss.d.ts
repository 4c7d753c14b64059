import { type LossEstimate } from '../stats/loss';
/** Short-lived TURN credentials as `/turn-creds` issues them. */
export interface TurnCredentials {
    username: string;
    credential: string;
    urls: string[];
}
/**
 * Packet loss per direction, measured through a TURN relay. Both peers run in the page; what makes the direction
 * truthful is that they reach the relay differently: one over UDP (datagrams that the link can drop) and one over TCP
 * (whatever the link drops there is retransmitted, so it arrives late but arrives). A packet from the UDP peer to the
 * TCP peer can only be lost on the way up (client → relay); one from the TCP peer to the UDP peer only on the way down.
 */
export interface LossResult {
    /** client → TURN relay, datagrams over UDP. */
    up: LossEstimate;
    /** TURN relay → client, datagrams over UDP. */
    down: LossEstimate;
    /** The relay the datagrams went through (its first URL). */
    relay: string;
    /**
     * How each peer reached the relay, read back from WebRTC's stats (the selected pair's local relay candidate): the
     * direction attribution holds only when these are 'udp' and 'tcp'.
     */
    relayProtocols: {
        udpPeer: string | null;
        tcpPeer: string | null;
    };
    durationMs: number;
}
export interface LossPhaseOptions {
    turn: TurnCredentials;
    /** Packets sent per direction (count). */
    packets: number;
    /** Gap between two packets (ms): paced, so the test measures the link's loss, not a queue it fills itself. */
    packetIntervalMs: number;
    /** Size of one packet (bytes, at least 4 for the sequence number). */
    packetBytes: number;
    /** How long to wait for stragglers after the last packet of a direction (ms). */
    drainMs: number;
    /** Time allowed for both peers to connect through the relay (ms). */
    connectTimeoutMs: number;
    signal: AbortSignal;
    /** Share of all packets (both directions) sent so far, 0..1; called every 100 packets. */
    onProgress?: (fraction: number) => void;
}
/**
 * 3000 packets each way: at 2 % loss the 95 % interval is ± 0.5 pp (binomial), what the lab check asks for; 500 gave
 * ± 1.2 pp and missed it (bench/loss). 100-byte messages every 2 ms are ≈ 0.8 Mbit/s on the wire with the SCTP, DTLS,
 * TURN, UDP and IP headers: little enough not to make loss on most links, 6 s per direction.
 */
export declare const defaultLossPhase: {
    readonly packets: 3000;
    readonly packetIntervalMs: 2;
    readonly packetBytes: 100;
    readonly drainMs: 1500;
};
/** Fetches `/turn-creds`; a reason string when the server has no TURN relay configured (404) or answers oddly. */
export declare function fetchTurnCredentials(serverUrl: string, signal: AbortSignal): Promise<TurnCredentials | string>;
/** The same relay over another transport: `turn:host:port?transport=tcp`. `turns:` is TLS over TCP already. */
export declare function relayUrlsFor(urls: readonly string[], transport: 'udp' | 'tcp'): string[];
/** The packet-loss phase: connects a UDP-relayed and a TCP-relayed peer, then measures up, then down. */
export declare function runLossPhase(options: LossPhaseOptions): Promise<LossResult>;
