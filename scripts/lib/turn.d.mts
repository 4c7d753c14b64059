// Types of turn.mjs for the TypeScript specs that start a TURN server (e2e/packet-loss.spec.ts).
export declare const turnserverBinary: string;
export declare function startTurnServer(options?: {
  listenPort?: number;
  minRelayPort?: number;
  relayPorts?: number;
  secret?: string;
}): Promise<{ secret: string; urls: string[]; stop: () => void }>;
export declare function writeTurnDevVars(turn: { secret: string; urls: string[] } | null): void;
