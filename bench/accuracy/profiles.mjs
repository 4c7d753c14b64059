// The network conditions of the accuracy testbed (pure data). Rates are tbf line rates per direction; RTT, jitter and
// loss are applied to the packets themselves by tools/link-emulator (../lib/link-emulator.mjs), so TCP sees them:
// half the RTT each way, jitter on the downstream half, the same loss rate each way.

/**
 * @typedef {object} Profile
 * @property {string} id short stable name used in tables and file names
 * @property {number} downMbit server -> client line rate, Mbit/s
 * @property {number} upMbit client -> server line rate, Mbit/s
 * @property {number} rttMs round-trip time, ms (half per direction)
 * @property {number} jitterMs jitter, ms: each downstream packet's delay is uniform in [-jitterMs, +jitterMs] around
 *   its half of the RTT (never reordering packets)
 * @property {number} lossPercent random (Bernoulli) packet loss, %, applied in each direction
 * @property {number} [queueMs] how long a packet may wait in the shaper's queue, ms (tbf `latency`); omitted: the lab's
 *   deep default (`defaultQueueMs` of ../lib/shaped-link.mjs, 400 ms)
 */

/**
 * @param {number} downMbit @param {number} upMbit @param {number} rttMs @param {number} [lossPercent]
 * @param {number} [jitterMs] @param {number} [queueMs]
 */
function profile(downMbit, upMbit, rttMs, lossPercent = 0, jitterMs = 0, queueMs = undefined) {
  const id =
    `${downMbit}/${upMbit} ${rttMs}ms${jitterMs ? ` ±${jitterMs}` : ''}${lossPercent ? ` ${lossPercent}%` : ''}` +
    `${queueMs === undefined ? '' : ` q${queueMs}`}`;
  return { id, downMbit, upMbit, rttMs, jitterMs, lossPercent, ...(queueMs === undefined ? {} : { queueMs }) };
}

/** @type {Profile[]} */
export const profiles = [
  profile(10, 2, 0),
  profile(10, 2, 40),
  profile(50, 10, 0),
  profile(50, 10, 40),
  profile(50, 10, 40, 0, 10),
  profile(200, 50, 0),
  profile(200, 50, 40),
  profile(1000, 1000, 0),
  profile(1000, 1000, 40),
  // Real conditions (issue 15): long and short paths, asymmetric and symmetric, each with 0.5 % and 2 % loss.
  ...[
    [5, 1, 200],
    [25, 5, 15],
    [100, 100, 80],
    [300, 30, 20],
    [50, 10, 40],
  ].flatMap(([down, up, rtt]) => [profile(down, up, rtt, 0.5), profile(down, up, rtt, 2)]),
];

/**
 * The smoke condition: quick for both engines (their byte budgets finish in seconds), with a true RTT, and well below
 * what the emulated path carries on a busy 2-core machine (~200 Mbit/s at load 10-20, bench/emulator), so the
 * smoke checks the engines, not the machine's spare CPU.
 */
export const smokeProfile = profile(100, 20, 20);

/**
 * Expected mean |Δ| between consecutive RTTs when each RTT carries one independent draw of a continuous uniform
 * jitter in [-J, J] (the emulator's, in ns): E|X - Y| = 2J / 3.
 * @param {number} jitterMs
 */
export function expectedJitterMs(jitterMs) {
  return (2 * jitterMs) / 3;
}

/**
 * Reads a profile written as its id, `<down>/<up>[ <rtt>ms][ ±<jitter>][ <loss>%][ q<queue>]` (Mbit/s, ms, ms, %, ms),
 * so a run can measure a link the list does not hold ("10/10 60ms 1%", "50/10 40ms q20": a 20 ms queue). Returns
 * undefined for text of another shape or with a value out of range (rates 0.05–10,000 Mbit/s, RTT ≤ 2,000 ms, jitter
 * ≤ half the RTT, loss < 50 %, queue 1–2,000 ms).
 * @param {string} text
 * @returns {Profile | undefined}
 */
export function parseProfile(text) {
  const match =
    /^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)(?: (\d+(?:\.\d+)?)ms)?(?: ±(\d+(?:\.\d+)?))?(?: (\d+(?:\.\d+)?)%)?(?: q(\d+))?$/.exec(
      text.trim(),
    );
  if (!match) return undefined;
  const [down, up, rtt = 0, jitter = 0, loss = 0] = match.slice(1, 6).map((value) => Number(value ?? 0));
  const queue = match[6] === undefined ? undefined : Number(match[6]);
  const rateOk = (/** @type {number} */ mbit) => mbit >= 0.05 && mbit <= 10_000;
  if (!rateOk(down) || !rateOk(up) || rtt > 2000 || jitter > rtt / 2 || loss >= 50) return undefined;
  if (queue !== undefined && !(queue >= 1 && queue <= 2000)) return undefined;
  return profile(down, up, rtt, loss, jitter, queue);
}

/**
 * The links of a comma-separated list (`--profiles` of the ad hoc diagnostics), each read by `parseProfile`; throws
 * on the first entry that is not one.
 * @param {string} list
 * @returns {Profile[]}
 */
export function parseProfiles(list) {
  return list.split(',').map((id) => {
    const parsed = parseProfile(id);
    if (!parsed) throw new Error(`not a profile: "${id}" (e.g. "100/100 80ms 0.5%")`);
    return parsed;
  });
}
