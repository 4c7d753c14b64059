import { LayoutCache } from './cache';
import type { PriorityConfig } from './config';
import { type PriorityHeaders, priorityHeaders, scheduleOf, urgentHeaders } from './emit';
import type { ImageLayout, ScanResult } from './layout';
import { readAhead, replay } from './prefix';
import { AnyImageScanner } from './scanner';
import { browserSignal } from './signal';

/** What the handler did, for logs, tests and the benchmark. */
export type PriorityOutcome =
  | { kind: 'skipped'; reason: string }
  | { kind: 'unusable'; reason: string; bufferedBytes: number }
  | { kind: 'prioritised'; layout: ImageLayout; bufferedBytes: number; cached: boolean }
  | { kind: 'urgent'; urgency: number };

/** Why a response is left alone without reading it, or `undefined` when it is worth a look. */
function skipReason(request: Request, response: Response): string | undefined {
  if (request.method !== 'GET') return `method ${request.method}`;
  if (response.status !== 200) return `status ${response.status}`; // a 206 range would shift every offset
  if (!response.body) return 'no body';
  if (!(response.headers.get('content-type') ?? '').toLowerCase().startsWith('image/')) return 'not an image';
  const encoding = response.headers.get('content-encoding');
  if (encoding && encoding !== 'identity') return `content-encoding ${encoding}`; // offsets are of the decoded bytes
  if (response.headers.has('cf-priority')) return 'origin already set cf-priority';
  // RFC 9218's response header is the origin's own say in the schedule, as cf-priority is.
  if (response.headers.has('priority')) return 'origin already set Priority';
  return undefined;
}

/** Why a scan gave no layout. */
const describe = (result: ScanResult) => (result.kind === 'invalid' ? result.reason : 'undecided');

/**
 * The body's length from `Content-Length`, when it is a plain non-negative integer. A header the origin repeated
 * reaches the Worker joined (`43916, 43916`); RFC 9110 §8.6 lets a recipient read identical values as one.
 */
function contentLength(headers: Headers): number | undefined {
  const values = new Set((headers.get('content-length') ?? '').split(',').map((value) => value.trim()));
  if (values.size !== 1) return undefined;
  const [value = ''] = values;
  if (!/^\d+$/.test(value)) return undefined;
  const length = Number(value);
  return Number.isSafeInteger(length) ? length : undefined;
}

/** The response again with `body` and, when given, the priority headers. */
function rebuild(response: Response, body: ReadableStream<Uint8Array>, priority?: PriorityHeaders) {
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(priority ?? {})) headers.set(name, value);
  const length = contentLength(response.headers);
  // Keep a known length so the client sees Content-Length, not chunked, exactly as from the origin.
  if (length !== undefined) {
    headers.set('content-length', String(length));
    const fixed = new FixedLengthStream(length);
    body.pipeTo(fixed.writable).catch(() => {}); // a short origin body errors the client stream, as it would anyway
    body = fixed.readable;
  }
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

/**
 * Adds `cf-priority`, `cf-priority-change` and `Priority` to an image response. Reads only the bytes needed for the
 * offsets (bounded by `maxBufferBytes` and `maxWaitMs`), then sends them followed by the rest as it streams in.
 * Anything it cannot read with confidence is passed through with its bytes unchanged and no priority headers.
 */
export async function prioritise(
  request: Request,
  response: Response,
  config: PriorityConfig,
  cache: LayoutCache,
): Promise<{ response: Response; outcome: PriorityOutcome }> {
  const skip = skipReason(request, response);
  if (skip || !response.body) return { response, outcome: { kind: 'skipped', reason: skip ?? 'no body' } };
  // What the browser said about this request's importance; the offsets do not depend on it, only the schedule.
  const signal = browserSignal(request.headers);
  const schedule = scheduleOf(signal, config);
  if (signal && schedule === 'whole') {
    // Sent whole in the browser's order: no offsets needed, so nothing is read ahead or held back.
    return {
      response: rebuild(response, response.body, urgentHeaders(signal, config)),
      outcome: { kind: 'urgent', urgency: signal.urgency },
    };
  }
  // An urgent image is read only to its preview's end, and at most `previewFirstMaxBytes`: a preview that is not in
  // by then is too large to send ahead, and the image goes whole with what was read.
  const previewFirst = schedule === 'preview-first';
  const key = LayoutCache.key(request.url, response.headers);
  const cached = key ? cache.get(key) : undefined;
  if (cached === 'unusable') return { response, outcome: { kind: 'skipped', reason: 'known to be unusable' } };
  if (cached === 'large-preview' && signal && previewFirst) {
    // An earlier urgent request found no preview within the budget: the same bytes go whole, nothing held back.
    return {
      response: rebuild(response, response.body, urgentHeaders(signal, config)),
      outcome: { kind: 'urgent', urgency: signal.urgency },
    };
  }
  // A layout read only to the preview lacks the good point a staged image uses: read that one again, in full.
  const known = cached === 'large-preview' || (cached?.previewOnly && !previewFirst) ? undefined : cached;
  if (known) {
    return {
      response: rebuild(response, response.body, priorityHeaders(known, config, signal, schedule)),
      outcome: { kind: 'prioritised', layout: known, bufferedBytes: 0, cached: true },
    };
  }
  const budgetBytes = previewFirst
    ? Math.min(config.maxBufferBytes, config.previewFirstMaxBytes)
    : config.maxBufferBytes;
  const scanner = new AnyImageScanner(config.goodImage, previewFirst);
  const ahead = await readAhead(response.body, scanner, budgetBytes, config.maxWaitMs);
  // A slow origin cut the read short: this response goes with what was found, and the scan goes on over the bytes as
  // they are forwarded (nothing held back), so the next request for these bytes waits for nothing.
  const learn = ahead.timedOut && key !== undefined ? learnFromRest(scanner, key, cache) : undefined;
  if (ahead.failed !== undefined) {
    // The origin's body broke while it was read ahead: what arrived goes on, then the same failure, as without us.
    return {
      response: rebuild(response, replay(ahead)),
      outcome: { kind: 'unusable', reason: describe(ahead.result), bufferedBytes: ahead.bufferedBytes },
    };
  }
  const cut = ahead.timedOut || (!ahead.ended && ahead.bufferedBytes >= budgetBytes);
  // What the read found holds for every request of these bytes only when the body was neither slow (a deadline
  // cut it) nor short: a body that ended before the scanner had its answer was finished by `finish()`, a guess from
  // a prefix, unless the origin's Content-Length says that was all of it (one cut transfer must not stand for the
  // file in this isolate's cache).
  const complete = ahead.ended && ahead.bufferedBytes === contentLength(response.headers);
  const lasting = key !== undefined && !ahead.timedOut && (!ahead.ended || complete);
  const previewBeyondBudget =
    previewFirst &&
    cut &&
    !ahead.timedOut &&
    (ahead.result.kind !== 'done' ||
      (!ahead.result.layout.previewOnly &&
        ahead.result.layout.progressive &&
        ahead.result.layout.goodEndBytes === undefined));
  if (lasting && previewBeyondBudget) cache.set(key, 'large-preview');
  if (signal && previewFirst && ahead.result.kind !== 'done' && cut) {
    // No answer within the preview-first budget (e.g. large metadata before the first scan): an urgent image is
    // sent whole, as the browser asked (a staged request reads further).
    return {
      response: rebuild(response, replay(ahead, learn), urgentHeaders(signal, config)),
      outcome: { kind: 'urgent', urgency: signal.urgency },
    };
  }
  if (ahead.result.kind !== 'done') {
    if (lasting) cache.set(key, 'unusable');
    return {
      response: rebuild(response, replay(ahead, learn)),
      outcome: { kind: 'unusable', reason: describe(ahead.result), bufferedBytes: ahead.bufferedBytes },
    };
  }
  const layout = ahead.result.layout;
  // A read cut by the preview-first budget knows less than the file holds: remembered as `large-preview` above.
  if (lasting && !previewBeyondBudget) cache.set(key, layout);
  return {
    response: rebuild(response, replay(ahead, learn), priorityHeaders(layout, config, signal, schedule)),
    outcome: { kind: 'prioritised', layout, bufferedBytes: ahead.bufferedBytes, cached: false },
  };
}

/**
 * Feeds the forwarded rest of a body to the scanner a deadline interrupted, and remembers its answer once it has one
 * mid-stream (a body that ends first may have been cut: nothing is remembered then, as for a read ahead).
 */
function learnFromRest(scanner: AnyImageScanner, key: string, cache: LayoutCache): (chunk: Uint8Array) => void {
  let settled = false;
  return (chunk) => {
    if (settled) return;
    const result = scanner.push(chunk);
    if (result.kind === 'more') return;
    settled = true;
    cache.set(key, result.kind === 'done' ? result.layout : 'unusable');
  };
}
