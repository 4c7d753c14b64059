// Per-direction link conditions (delay, jitter, loss) and their text form for tools/link-emulator (pure).
//
//   conditionSpec({ delayMs: 40, jitterMs: 2, lossPercent: 0.5 })  // 'delay=40ms,jitter=2ms,loss=0.5%'

/**
 * @typedef {object} GilbertElliott bursty loss: a two-state chain stepped once per packet
 * @property {number} enterBadPercent P(good → bad) per packet, %
 * @property {number} exitBadPercent P(bad → good) per packet, % (a bad period lasts 100 / exitBadPercent packets)
 * @property {number} [lossGoodPercent] loss in the good state, % (default 0)
 * @property {number} [lossBadPercent] loss in the bad state, % (default 100)
 */

/**
 * @typedef {object} DirectionConditions what one direction of the link does to each packet
 * @property {number} [delayMs] one-way delay, ms
 * @property {number} [jitterMs] half-width of the uniform jitter around the delay, ms (≤ delayMs)
 * @property {boolean} [reorder] let jitter reorder packets (default false: a FIFO path)
 * @property {number} [lossPercent] independent (Bernoulli) loss, %
 * @property {GilbertElliott} [burstLoss] bursty loss instead of lossPercent
 */

/** @param {number} value @param {string} name @param {number} max */
function checked(value, name, max) {
  if (!(Number.isFinite(value) && value >= 0 && value <= max))
    throw new Error(`${name} must be in [0, ${max}], got ${value}`);
  return value;
}

/** Shortest decimal text of a number (no exponent for the ranges used here). */
const num = (/** @type {number} */ value) => String(Number(value.toFixed(6)));

/**
 * The emulator's text form of one direction's conditions; '' for a perfect direction. Throws on out-of-range values.
 * @param {DirectionConditions | undefined} conditions
 */
export function conditionSpec(conditions = {}) {
  const delayMs = checked(conditions.delayMs ?? 0, 'delayMs', 60_000);
  const jitterMs = checked(conditions.jitterMs ?? 0, 'jitterMs', delayMs);
  const parts = [];
  if (delayMs > 0) parts.push(`delay=${num(delayMs)}ms`);
  if (jitterMs > 0) parts.push(`jitter=${num(jitterMs)}ms`);
  if (conditions.reorder) parts.push('reorder=allow');
  if (conditions.burstLoss) {
    const { enterBadPercent, exitBadPercent, lossGoodPercent = 0, lossBadPercent = 100 } = conditions.burstLoss;
    const values = [enterBadPercent, exitBadPercent, lossGoodPercent, lossBadPercent].map((v, i) =>
      num(checked(v, ['enterBadPercent', 'exitBadPercent', 'lossGoodPercent', 'lossBadPercent'][i], 100)),
    );
    parts.push(`ge=${values.map((v) => `${v}%`).join('/')}`);
  } else if ((conditions.lossPercent ?? 0) > 0) {
    parts.push(`loss=${num(checked(conditions.lossPercent ?? 0, 'lossPercent', 100))}%`);
  }
  return parts.join(',');
}

/** Whether a direction changes nothing (so the kernel can forward it directly). @param {DirectionConditions | undefined} c */
export function isPerfect(c) {
  return conditionSpec(c) === '';
}

/**
 * Expected long-run loss of one direction, %.
 * @param {DirectionConditions | undefined} conditions
 */
export function expectedLossPercent(conditions = {}) {
  if (conditions.burstLoss) {
    const { enterBadPercent, exitBadPercent, lossGoodPercent = 0, lossBadPercent = 100 } = conditions.burstLoss;
    const total = enterBadPercent + exitBadPercent;
    const badShare = total > 0 ? enterBadPercent / total : 0;
    return badShare * lossBadPercent + (1 - badShare) * lossGoodPercent;
  }
  return conditions.lossPercent ?? 0;
}

/**
 * Splits a round-trip time into per-direction conditions (half the RTT each way; jitter on the downstream half only,
 * so each RTT carries exactly one draw), with the same loss each way.
 * @param {{ rttMs: number, jitterMs?: number, lossPercent?: number }} profile
 * @returns {{ down: DirectionConditions, up: DirectionConditions }}
 */
export function symmetricConditions({ rttMs, jitterMs = 0, lossPercent = 0 }) {
  const upMs = rttMs / 2;
  return {
    down: { delayMs: rttMs - upMs, jitterMs, lossPercent },
    up: { delayMs: upMs, lossPercent },
  };
}
