import type { CfPriority, PriorityConfig } from './config';
import type { ImageLayout } from './layout';
import type { BrowserSignal } from './signal';

/** Response headers that tell an HTTP/2 or HTTP/3 server in front of the Worker how to schedule this body. */
export interface PriorityHeaders {
  'cf-priority': string;
  /** Absent when the body keeps one priority from first byte to last. */
  'cf-priority-change'?: string;
  priority: string;
}

/** Whether the browser asked for this image urgently: then it keeps the browser's order and is never demoted. */
export function isUrgent(signal: BrowserSignal | undefined, config: PriorityConfig): boolean {
  return signal !== undefined && signal.urgency <= config.urgentMaxUrgency;
}

/**
 * An urgent image's headers. They need no offsets, so the handler sends them without reading ahead (nothing is held
 * back from an image the browser is waiting for); the browser's urgency and incremental flag are echoed.
 */
export function urgentHeaders(signal: BrowserSignal, config: PriorityConfig): PriorityHeaders {
  return { 'cf-priority': config.urgent, priority: `u=${signal.urgency}${signal.incremental ? ', i' : ''}` };
}

/**
 * The schedule of one image response.
 *
 * - An image the browser asked for urgently (its `Priority` urgency at most `urgentMaxUrgency`: Chromium's
 *   `fetchpriority=high`, preloads and the first sizeable images of the page, where the LCP image almost always is)
 *   goes whole at `urgent` (`30/0`: exclusive, in request order with the page's other critical responses), exactly
 *   as the browser's own order would send it. Interleaving other images' previews before its last byte would only
 *   delay Largest Contentful Paint, which counts an image when it is complete.
 * - Any other image is staged: its header first (layout), a progressive JPEG's preview and "good" scans shared with
 *   the other images' (early, whole-page previews for Speed Index), then the rest at `rest`, which by default is
 *   exclusive (`10/0`) so remainders complete one after another in request order — the first image in the document
 *   first — instead of all finishing together at the very end.
 */
export function priorityHeaders(layout: ImageLayout, config: PriorityConfig, signal?: BrowserSignal): PriorityHeaders {
  if (signal && isUrgent(signal, config)) return urgentHeaders(signal, config);
  const urgency = signal?.urgency ?? config.urgency;
  const rfc9218 = layout.progressive ? `u=${urgency}, i` : `u=${urgency}`;
  const stages = stagedChanges(layout, config);
  return stages.length > 0
    ? { 'cf-priority': config.header, 'cf-priority-change': stages.join(', '), priority: rfc9218 }
    : { 'cf-priority': config.header, priority: rfc9218 };
}

/**
 * Stages of a body as `offset:priority` switches. A progressive JPEG goes header → preview → good → rest; every
 * other image (baseline JPEG, PNG, GIF, WebP, AVIF) only gets its header sent first, so layout does not wait.
 */
function stagedChanges(layout: ImageLayout, config: PriorityConfig): string[] {
  const changes: string[] = [];
  let last = 0;
  const change = (offsetBytes: number | undefined, priority: CfPriority) => {
    if (offsetBytes === undefined || offsetBytes <= last) return; // a stage that is empty or not found is skipped
    changes.push(`${offsetBytes}:${priority}`);
    last = offsetBytes;
  };
  if (layout.progressive && layout.previewEndBytes !== undefined) {
    // A good point at (or before) the preview's end adds no stage: the preview goes straight to the rest.
    const goodEndBytes =
      layout.goodEndBytes !== undefined && layout.goodEndBytes > layout.previewEndBytes
        ? layout.goodEndBytes
        : undefined;
    change(layout.headerEndBytes, config.preview);
    change(layout.previewEndBytes, goodEndBytes !== undefined ? config.good : config.rest);
    change(goodEndBytes, config.rest);
  } else {
    // Without a known preview end the preview stage would never end: header-first, as for other formats.
    change(layout.headerEndBytes, config.rest);
  }
  return changes;
}
