// The lab's TURN relay: coturn in a shaped link's server namespace, on the server's address, so what the speed
// test's loss phase sends crosses the emulated path (bench/loss, bench/accuracy). Ports 3478 and 40000–40015.
import { startTurnServer } from '../../scripts/lib/turn.mjs';

/**
 * Starts coturn in `link`'s server namespace with a fresh secret; resolves once it listens (see `startTurnServer`).
 * @param {{ serverIp: string, serverNs: string, spawn: (ns: string, command: string, args: string[]) => import('node:child_process').ChildProcess }} link
 */
export function startLabTurnServer(link) {
  return startTurnServer({
    listenIp: link.serverIp,
    listenPort: 3478,
    minRelayPort: 40000,
    relayPorts: 16,
    spawn: (command, args) => link.spawn(link.serverNs, command, args),
  });
}
