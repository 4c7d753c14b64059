// The one place round-trip time is added to the lab's link. The link is routed through tools/link-emulator
// (bench/lib/shaped-link with `emulator: true`): every packet is delayed, half the RTT each way, so TCP's handshakes,
// slow start and ACK clock see the profile's RTT as they would on a real mobile or desktop link.
import { symmetricConditions } from '../lib/link-conditions.mjs';

export const rttMechanism = 'packet-level (tools/link-emulator, half the RTT each way; TCP sees it)';

/** What createShapedLink needs so that `addRtt` can work: a routed link with the emulator in the middle. */
export const linkOptions = { emulator: true };

/**
 * RTT control for a link made with `linkOptions`. The delay applies to every port, so the backends need no entry
 * proxies.
 * @param {import('../lib/shaped-link.mjs').ShapedLink} link from createShapedLink({ ...linkOptions, ... })
 */
export function addRtt(link) {
  return {
    mechanism: rttMechanism,
    /** @param {number} rttMs */
    setRttMs: (/** @type {number} */ rttMs) => link.setConditions(symmetricConditions({ rttMs })),
    stop: async () => {},
  };
}
