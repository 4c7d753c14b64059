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

/** Whether the browser asked for this image urgently: then it is never demoted below the images it did not. */
export function isUrgent(signal: BrowserSignal | undefined, config: PriorityConfig): boolean {
  return signal !== undefined && signal.urgency <= config.urgentMaxUrgency;
}

/**
 * How one image response is scheduled, decided from the request's `Priority` alone, before any body byte:
 * - `whole`: urgent, sent whole at `urgent` in the browser's order; no offsets needed, nothing read ahead.
 * - `preview-first`: another urgent image; if its preview ends within `previewFirstMaxBytes`, the preview goes at
 *   `urgentPreview` and the rest at `urgent`, else it goes whole (read ahead at most that far to find out).
 * - `staged`: not urgent; header, preview, good scans and rest at the staged levels.
 */
export type Schedule = 'whole' | 'preview-first' | 'staged';

export function scheduleOf(signal: BrowserSignal | undefined, config: PriorityConfig): Schedule {
  if (!signal || !isUrgent(signal, config)) return 'staged';
  if (signal.urgency <= config.wholeMaxUrgency) return 'whole'; // the page named it: fetchpriority=high, a preload
  return config.previewFirstMaxBytes > 0 ? 'preview-first' : 'whole';
}

/** The browser's urgency and incremental flag, echoed as RFC 9218 `Priority`. */
function echo(signal: BrowserSignal): string {
  return `u=${signal.urgency}${signal.incremental ? ', i' : ''}`;
}

/**
 * An urgent image's headers when it goes whole. They need no offsets, so the handler sends them without reading
 * ahead (nothing is held back from an image the browser is waiting for); the browser's urgency is echoed.
 */
export function urgentHeaders(signal: BrowserSignal, config: PriorityConfig): PriorityHeaders {
  return { 'cf-priority': config.urgent, priority: echo(signal) };
}

/**
 * The schedule of one image response.
 *
 * - `whole` (see `scheduleOf`): at `urgent` (`30/0`: exclusive, in request order with the page's other critical
 *   responses). Interleaving other images' bytes before its last byte would only delay Largest Contentful Paint,
 *   which counts an image when it is complete.
 * - `preview-first`: an image the browser asked for urgently by its own rule (Chromium's Medium for the first five
 *   sizeable images: usually the ones in view) whose progressive preview ends within `previewFirstMaxBytes`. Its
 *   header and preview go at `urgentPreview` (`31/0`), the rest at `urgent`, in request order. The previews of up to
 *   five such images paint with the page's first paint instead of one after another behind the images requested
 *   before them — what HTTP/1.1's six parallel connections give a page and HTTP/2's request order takes away — for
 *   a few KB each ahead of the critical responses. A large preview (a large image: the likely LCP image), or none
 *   (baseline JPEG, PNG, …), and the image goes whole.
 * - `staged`: any other image. Its header first (layout), a progressive JPEG's preview and "good" scans shared with
 *   the other images' (early, whole-page previews for Speed Index), then the rest at `rest`, which by default is
 *   exclusive (`10/0`) so remainders complete one after another in request order — the first image in the document
 *   first — instead of all finishing together at the very end.
 */
export function priorityHeaders(
  layout: ImageLayout,
  config: PriorityConfig,
  signal?: BrowserSignal,
  schedule: Schedule = scheduleOf(signal, config),
): PriorityHeaders {
  if (signal && schedule === 'whole') return urgentHeaders(signal, config);
  if (signal && schedule === 'preview-first') return previewFirstHeaders(layout, config, signal);
  const urgency = signal?.urgency ?? config.urgency;
  const rfc9218 = layout.progressive ? `u=${urgency}, i` : `u=${urgency}`;
  const stages = stagedChanges(layout, config);
  return stages.length > 0
    ? { 'cf-priority': config.header, 'cf-priority-change': stages.join(', '), priority: rfc9218 }
    : { 'cf-priority': config.header, priority: rfc9218 };
}

/** An urgent image with a small preview: its header and preview at `urgentPreview`, the rest at `urgent`. */
function previewFirstHeaders(layout: ImageLayout, config: PriorityConfig, signal: BrowserSignal): PriorityHeaders {
  const previewEnd = layout.progressive ? layout.previewEndBytes : undefined;
  // Without a preview, or with one too large to send ahead of the critical responses: whole, in the browser's order.
  if (previewEnd === undefined || previewEnd > config.previewFirstMaxBytes) return urgentHeaders(signal, config);
  return {
    'cf-priority': config.urgentPreview,
    'cf-priority-change': `${previewEnd}:${config.urgent}`,
    priority: echo(signal),
  };
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
