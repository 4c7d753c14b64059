// Pure reductions of what one page load recorded into the Speed Page's per-run metrics.

/**
 * Cumulative Layout Shift as Core Web Vitals defines it: shifts without recent input grouped into session windows
 * (a gap under 1 s, a window at most 5 s long); the largest window's sum.
 * @param {{ startTimeMs: number, value: number, hadRecentInput?: boolean }[]} shifts
 */
export function cumulativeLayoutShift(shifts) {
  let best = 0;
  let windowSum = 0;
  let windowStartMs = Number.NEGATIVE_INFINITY;
  let previousMs = Number.NEGATIVE_INFINITY;
  for (const shift of [...shifts].sort((a, b) => a.startTimeMs - b.startTimeMs)) {
    if (shift.hadRecentInput) continue;
    if (shift.startTimeMs - previousMs >= 1000 || shift.startTimeMs - windowStartMs >= 5000) {
      windowSum = 0;
      windowStartMs = shift.startTimeMs;
    }
    windowSum += shift.value;
    previousMs = shift.startTimeMs;
    best = Math.max(best, windowSum);
  }
  return best;
}

/**
 * Total Blocking Time: the part over 50 ms of every long task that starts after First Contentful Paint, until the
 * end of the recording (Lighthouse stops at Time to Interactive; a load that settles is close to that).
 * @param {{ startTimeMs: number, durationMs: number }[]} longTasks @param {number} fcpMs
 */
export function totalBlockingTime(longTasks, fcpMs) {
  let total = 0;
  for (const task of longTasks) {
    if (task.startTimeMs + task.durationMs <= fcpMs) continue;
    // A task straddling FCP counts only its part after FCP, as Lighthouse does.
    const startMs = Math.max(task.startTimeMs, fcpMs);
    total += Math.max(0, task.startTimeMs + task.durationMs - startMs - 50);
  }
  return total;
}

/** Resource classes of the report, from CDP's `Network.ResourceType` and the MIME type. */
export const resourceClasses = /** @type {const} */ (['html', 'css', 'js', 'image', 'font', 'other']);

/** @param {string} cdpType @param {string} mimeType @returns {(typeof resourceClasses)[number]} */
export function resourceClass(cdpType, mimeType) {
  if (cdpType === 'Document') return 'html';
  if (cdpType === 'Stylesheet') return 'css';
  if (cdpType === 'Script' || /javascript|binast/.test(mimeType)) return 'js';
  if (cdpType === 'Image' || mimeType.startsWith('image/')) return 'image';
  if (cdpType === 'Font' || mimeType.startsWith('font/')) return 'font';
  return 'other';
}

/**
 * Bytes on the wire and request counts per class.
 * @param {{ cdpType: string, mimeType: string, encodedBytes: number }[]} requests
 */
export function bytesByClass(requests) {
  /** @type {Record<string, { bytes: number, requests: number }>} */
  const totals = {};
  for (const name of resourceClasses) totals[name] = { bytes: 0, requests: 0 };
  for (const request of requests) {
    const entry = totals[resourceClass(request.cdpType, request.mimeType)];
    entry.bytes += request.encodedBytes;
    entry.requests += 1;
  }
  return totals;
}

/** Shares of a response body (%) whose arrival time each request's timeline records. */
export const bodySharesPct = [10, 25, 50];

/**
 * When a share of a response's body had arrived: the time of the first sample at which the bytes received so far
 * reach that share of the whole body. With the priority feature a progressive JPEG's preview is its first 5–16 %, so
 * the 10 % and 25 % times show whether previews came earlier. NaN when nothing was recorded or the body is empty.
 * @param {[timeMs: number, bytes: number][]} chunks bytes received in each chunk, in arrival order
 * @param {number} sharePct 0–100
 */
export function bodyShareArrivalMs(chunks, sharePct) {
  const totalBytes = chunks.reduce((sum, [, bytes]) => sum + bytes, 0);
  if (totalBytes <= 0) return Number.NaN;
  let receivedBytes = 0;
  for (const [timeMs, bytes] of chunks) {
    receivedBytes += bytes;
    if (receivedBytes * 100 >= totalBytes * sharePct) return timeMs;
  }
  return Number.NaN;
}
