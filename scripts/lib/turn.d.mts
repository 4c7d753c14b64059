// Types of turn.mjs for the TypeScript specs that start a TURN server (e2e/packet-loss.spec.ts).
export declare const turnserverBinary: string;
export declare function startTurnServer(options?: {
  listenPort?: number;
  minRelayPort?: number;
  relayPorts?: number;
  secret?: string;
  listenIp?: string;
  spawn?: (command: string, args: string[]) => import('node:child_process').ChildProcess;
}): Promise<{ secret: string; urls: string[]; stop: () => Promise<void> }>;
export declare function writeTurnDevVars(turn: { secret: string; urls: string[] } | null): void;
