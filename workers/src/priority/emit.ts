import type { PriorityConfig } from './config';
import type { ImageLayout } from './layout';

/** Response headers that tell an HTTP/2 or HTTP/3 server in front of the Worker how to schedule this body. */
export interface PriorityHeaders {
  'cf-priority': string;
  'cf-priority-change': string;
  priority: string;
}

/**
 * Stages of a body as `(offset, priority)` pairs. A progressive JPEG goes header → preview → good → rest; every
 * other image (baseline JPEG, PNG, GIF, WebP, AVIF) only gets its header sent first, so layout does not wait.
 */
export function priorityHeaders(layout: ImageLayout, config: PriorityConfig): PriorityHeaders {
  const changes: string[] = [];
  let last = 0;
  const change = (offsetBytes: number | undefined, priority: string) => {
    if (offsetBytes === undefined || offsetBytes <= last) return; // a stage that is empty or not found is skipped
    changes.push(`${offsetBytes}:${priority}`);
    last = offsetBytes;
  };
  if (layout.progressive) {
    change(layout.headerEndBytes, config.preview);
    const afterPreview = layout.goodEndBytes !== undefined ? config.good : config.rest;
    change(layout.previewEndBytes, afterPreview);
    change(layout.goodEndBytes, config.rest);
    // Without a known preview end the preview stage would never end: fall back to header-first.
    if (layout.previewEndBytes === undefined)
      changes.splice(0, changes.length, `${layout.headerEndBytes}:${config.rest}`);
  } else {
    change(layout.headerEndBytes, config.rest);
  }
  return {
    'cf-priority': config.header,
    'cf-priority-change': changes.join(', '),
    priority: layout.progressive ? `u=${config.urgency}, i` : `u=${config.urgency}`,
  };
}
