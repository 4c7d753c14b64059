// The TCP goodput a tbf-shaped direction of the lab's links carries: what the bench's truths and expectations are
// checked against (bench/accuracy, bench/emulator, bench/speedtest/shaped-check.mjs).

/** TCP payload bytes per full-size segment: MTU 1500 − IPv4 20 − TCP 20 − timestamps option 12 (Linux's default). */
const payloadBytesPerSegment = 1448;
/** What tbf meters for that segment on a veth: the whole Ethernet frame, 1500 + 14 bytes of header (no FCS, no gap). */
const meteredBytesPerSegment = 1514;

/**
 * TCP goodput of a tbf line rate (bits/s): the rate × 1448 / 1514, what each full segment delivers of what it costs
 * the shaper.
 * @param {number} rateMbit
 */
export function goodputOfRateBps(rateMbit) {
  return (rateMbit * 1e6 * payloadBytesPerSegment) / meteredBytesPerSegment;
}
