// The network conditions of the accuracy testbed (pure data). Rates are tbf line rates per direction; the added
// RTT and jitter are applied by toxiproxy at the application level (see ../lib/toxiproxy.mjs).

/**
 * @typedef {object} Profile
 * @property {string} id short stable name used in tables and file names
 * @property {number} downMbit server -> client line rate, Mbit/s
 * @property {number} upMbit client -> server line rate, Mbit/s
 * @property {number} rttMs added round-trip time, ms (half per direction)
 * @property {number} jitterMs added jitter, ms: each response's delay is uniform in [-jitterMs, +jitterMs)
 */

/** @type {Profile[]} */
export const profiles = [
  { id: '10/2 0ms', downMbit: 10, upMbit: 2, rttMs: 0, jitterMs: 0 },
  { id: '10/2 40ms', downMbit: 10, upMbit: 2, rttMs: 40, jitterMs: 0 },
  { id: '50/10 0ms', downMbit: 50, upMbit: 10, rttMs: 0, jitterMs: 0 },
  { id: '50/10 40ms', downMbit: 50, upMbit: 10, rttMs: 40, jitterMs: 0 },
  { id: '50/10 40ms ±10', downMbit: 50, upMbit: 10, rttMs: 40, jitterMs: 10 },
  { id: '200/50 0ms', downMbit: 200, upMbit: 50, rttMs: 0, jitterMs: 0 },
  { id: '200/50 40ms', downMbit: 200, upMbit: 50, rttMs: 40, jitterMs: 0 },
  { id: '1000/1000 0ms', downMbit: 1000, upMbit: 1000, rttMs: 0, jitterMs: 0 },
  { id: '1000/1000 40ms', downMbit: 1000, upMbit: 1000, rttMs: 40, jitterMs: 0 },
];

/** The smoke condition: fast for both engines (their byte budgets finish in seconds) yet shaped and delayed. */
export const smokeProfile = /** @type {Profile} */ ({
  id: '200/50 20ms',
  downMbit: 200,
  upMbit: 50,
  rttMs: 20,
  jitterMs: 0,
});

/**
 * Expected mean |Δ| between consecutive RTTs when each RTT carries one independent draw of toxiproxy's jitter
 * (integers uniform in [-J, J), n = 2J values): E|X - Y| = (n² - 1) / (3n) for a discrete uniform of n values.
 * @param {number} jitterMs
 */
export function expectedJitterMs(jitterMs) {
  const n = 2 * Math.round(jitterMs);
  return n <= 1 ? 0 : (n * n - 1) / (3 * n);
}
