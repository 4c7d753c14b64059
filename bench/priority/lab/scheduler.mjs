// The lab server's scheduling policy, kept free of I/O. Every response is a stream with a priority level (higher is
// sent first) and a concurrency: 0 = exclusive (one stream at a time, in request order), 1 or n = round-robin with
// the other non-exclusive streams of its level. This is our reading of Cloudflare's `cf-priority` semantics; 1 and n
// are not told apart here (they differ only in how a level is shared with exclusive streams, which this lab does
// not need).

/** @typedef {{ level: number, exclusive: boolean }} Priority */
/** @typedef {{ offsetBytes: number, priority: Priority }} Change */
/** @typedef {'fifo' | 'round-robin' | 'rfc9218' | 'cf'} Mode */

/** @param {string | undefined} text `<priority>/<concurrency>` @returns {Priority | undefined} */
export function parseCfPriority(text) {
  const match = /^\s*(\d{1,2})\/(\d+|n)\s*$/.exec(text ?? '');
  return match ? { level: Number(match[1]), exclusive: match[2] === '0' } : undefined;
}

/** @param {string | undefined} text `<offset>:<priority>/<concurrency>, ...` @returns {Change[]} */
export function parseCfPriorityChange(text) {
  const changes = [];
  for (const part of (text ?? '').split(',')) {
    const [offset, value] = part.split(':');
    const priority = parseCfPriority(value);
    if (priority && /^\s*\d+\s*$/.test(offset ?? '')) changes.push({ offsetBytes: Number(offset), priority });
  }
  return changes.sort((a, b) => a.offsetBytes - b.offsetBytes);
}

/**
 * RFC 9218 `Priority: u=<0..7>[, i]` (defaults u=3, not incremental) mapped onto levels: urgency 0 is level 7.
 * @param {string | undefined} text @returns {Priority}
 */
export function parseRfc9218(text) {
  const urgency = /(?:^|[,\s])u=([0-7])(?:$|[,\s;])/.exec(text ?? '');
  const incremental = /(?:^|[,\s])i(?:=\?1)?(?:$|[,\s;])/.test(text ?? '');
  return { level: 7 - Number(urgency?.[1] ?? 3), exclusive: !incremental };
}

/**
 * How a response is scheduled in each mode. `fifo` and `round-robin` ignore the headers: the two usual behaviours
 * of servers that do not prioritise (Chrome's exclusive HTTP/2 dependency chain gives fifo; no tree gives
 * round-robin). `rfc9218` honours `Priority`; `cf` honours `cf-priority` and `cf-priority-change`.
 * @param {Mode} mode @param {Record<string, string | string[] | undefined>} headers lower-case response headers
 * @returns {{ base: Priority, changes: Change[] }}
 */
export function priorityFor(mode, headers) {
  const header = (/** @type {string} */ name) => {
    const value = headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  if (mode === 'fifo') return { base: { level: 10, exclusive: true }, changes: [] };
  if (mode === 'round-robin') return { base: { level: 10, exclusive: false }, changes: [] };
  if (mode === 'rfc9218') return { base: parseRfc9218(header('priority')), changes: [] };
  // Unannotated responses (the HTML page) go first, exclusively, as Cloudflare's default does for documents.
  const base = parseCfPriority(header('cf-priority')) ?? { level: 30, exclusive: true };
  return { base, changes: parseCfPriorityChange(header('cf-priority-change')) };
}

/**
 * @typedef {object} ScheduledStream
 * @property {number} seq request order
 * @property {number} sentBytes
 * @property {number} queuedBytes
 * @property {Priority} base
 * @property {Change[]} changes
 * @property {number} lastServed tick of the last write, for round-robin
 */

/** The priority in force at the stream's next byte. @param {ScheduledStream} stream */
export function currentPriority(stream) {
  let priority = stream.base;
  for (const change of stream.changes) if (change.offsetBytes <= stream.sentBytes) priority = change.priority;
  return priority;
}

/** Bytes the stream may send before its priority changes (Infinity when no change is ahead). */
export function bytesUntilChange(/** @type {ScheduledStream} */ stream) {
  const next = stream.changes.find((change) => change.offsetBytes > stream.sentBytes);
  return next ? next.offsetBytes - stream.sentBytes : Number.POSITIVE_INFINITY;
}

/**
 * The stream whose bytes go next: highest level first; within it the oldest exclusive stream, else the
 * least recently served of the shared ones.
 * @template {ScheduledStream} S
 * @param {Iterable<S>} streams @returns {S | undefined}
 */
export function pickNext(streams) {
  /** @type {S | undefined} */
  let best;
  /** @type {number[] | undefined} */
  let bestKey;
  for (const stream of streams) {
    if (stream.queuedBytes === 0) continue;
    const priority = currentPriority(stream);
    // Sort key: level desc, exclusive before shared, then request order (exclusive) or least recently served.
    const key = [
      -priority.level,
      priority.exclusive ? 0 : 1,
      priority.exclusive ? stream.seq : stream.lastServed,
      stream.seq,
    ];
    if (!bestKey || compare(key, bestKey) < 0) {
      best = stream;
      bestKey = key;
    }
  }
  return best;
}

/** Lexicographic order of two sort keys. @param {number[]} a @param {number[]} b */
function compare(a, b) {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}
