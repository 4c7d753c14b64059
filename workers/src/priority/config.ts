import { integerIn, type VarParser, varReader } from '../shared/vars';
import { defaultGoodImageRule, type GoodImageRule } from './jpeg';

/** A Cloudflare priority: `<priority>/<concurrency>`; higher priority is sent first, concurrency 0 | 1 | n. */
export type CfPriority = `${number}/${number | 'n'}`;

export interface PriorityConfig {
  /**
   * Most bytes of a body held back while looking for the offsets (bytes). The client gets nothing until then, so
   * this bounds the added time to first byte. Default 256 KiB: covers the good-image point of photos up to ~500 KB
   * and costs a few ms from an origin in the same data centre.
   */
  maxBufferBytes: number;
  /** Longest wait for those bytes (ms); a slow origin gets the headers computed so far. Default 500. */
  maxWaitMs: number;
  /** Until the end of the header of every image: exclusive, so layout is known early. Default `30/0`. */
  header: CfPriority;
  /** Progressive JPEG until the first DC pass of all components: shared, so all previews arrive together. `20/1`. */
  preview: CfPriority;
  /** Progressive JPEG until luma's low-frequency AC is good (see `good`). Default `15/1`. */
  good: CfPriority;
  /**
   * Everything after, for images not asked for urgently. Default `10/0`: exclusive, so remainders complete one at a
   * time in request order (the first image of the document first) rather than all together at the end.
   */
  rest: CfPriority;
  /**
   * Images the browser asked for with an RFC 9218 urgency at most this (0..7; -1, var `off`: never) keep its order:
   * the whole body at `urgent`, no preview stages. Default 2: Chromium's Medium and above — `fetchpriority=high`,
   * preloads and the first five sizeable images, where the LCP image is.
   */
  urgentMaxUrgency: number;
  /** An urgent image's first bytes (all of it when it goes whole). Default `30/0`: in request order with the page's
   * critical responses. */
  urgent: CfPriority;
  /**
   * Urgent images asked for with an urgency at most this (-1, var `off`: none) always go whole at `urgent`. Default
   * 1: `fetchpriority=high` and preloads, where a page names its LCP image.
   */
  wholeMaxUrgency: number;
  /**
   * Other urgent images (Chromium's automatic Medium for the first five sizeable images, `u=2`: usually the ones in
   * view) whose progressive preview ends within this many bytes of the start send their header and preview at
   * `urgentPreview`, then the rest at `urgent`. The Worker reads at most this far ahead to find out; a larger
   * preview (a large image: the likely LCP image) or none, and the image goes whole at `urgent`. Default 16 KiB:
   * a thumbnail's or a gallery photo's preview is 2–13 KB, a 1600 px hero's ~25 KB. 0 turns it off.
   */
  previewFirstMaxBytes: number;
  /**
   * The header and preview of those small urgent images. Default `31/0`: just above the page's critical responses,
   * in request order, so they paint with the first paint instead of after the large image sent before them.
   */
  urgentPreview: CfPriority;
  /**
   * RFC 9218 urgency (0 most urgent .. 7) written on images whose request carried none; progressive ones are also
   * marked incremental. A request's own urgency is echoed. Default 3.
   */
  urgency: number;
  /** What "good" means for a progressive JPEG. Default: luma AC 1..5 known to within 2^1. */
  goodImage: GoodImageRule;
  /** Images whose offsets are remembered per URL and ETag in each isolate. Default 1000 (a few dozen KB). */
  cacheEntries: number;
}

export const defaultPriorityConfig: PriorityConfig = {
  maxBufferBytes: 256 * 1024,
  maxWaitMs: 500,
  header: '30/0',
  preview: '20/1',
  good: '15/1',
  rest: '10/0',
  urgentMaxUrgency: 2,
  urgent: '30/0',
  wholeMaxUrgency: 1,
  previewFirstMaxBytes: 16 * 1024,
  urgentPreview: '31/0',
  urgency: 3,
  goodImage: defaultGoodImageRule,
  cacheEntries: 1000,
};

const priorityPattern = /^([0-9]|[1-5][0-9]|6[0-3])\/([0-9]+|n)$/;

const priority: VarParser<CfPriority> = {
  expected: 'a priority like 30/0',
  parse: (raw) =>
    typeof raw === 'string' && priorityPattern.test(raw.trim()) ? (raw.trim() as CfPriority) : undefined,
};

/** An urgency 0..7, or `off` (-1: no request qualifies). */
const urgencyOrOff: VarParser<number> = {
  expected: 'an urgency from 0 to 7, or off',
  parse: (raw) => (typeof raw === 'string' && raw.trim() === 'off' ? -1 : integerIn(0, 7).parse(raw)),
};

/**
 * Reads `PRIORITY_*` vars (strings from wrangler.toml or the dashboard). A missing or malformed value falls back to
 * its default and is named in `problems`, so a typo never takes the site down.
 */
export function readPriorityConfig(vars: Record<string, unknown>): { config: PriorityConfig; problems: string[] } {
  const problems: string[] = [];
  const pick = varReader(vars, ({ name, raw, fallback }) =>
    problems.push(`${name}=${JSON.stringify(raw)} is invalid; using ${String(fallback)}`),
  );
  const d = defaultPriorityConfig;
  const config: PriorityConfig = {
    maxBufferBytes: pick('PRIORITY_MAX_BUFFER_BYTES', integerIn(64, 16 * 1024 * 1024), d.maxBufferBytes),
    maxWaitMs: pick('PRIORITY_MAX_WAIT_MS', integerIn(0, 30_000), d.maxWaitMs),
    header: pick('PRIORITY_HEADER', priority, d.header),
    preview: pick('PRIORITY_PREVIEW', priority, d.preview),
    good: pick('PRIORITY_GOOD', priority, d.good),
    rest: pick('PRIORITY_REST', priority, d.rest),
    urgentMaxUrgency: pick('PRIORITY_URGENT_MAX_URGENCY', urgencyOrOff, d.urgentMaxUrgency),
    urgent: pick('PRIORITY_URGENT', priority, d.urgent),
    wholeMaxUrgency: pick('PRIORITY_WHOLE_MAX_URGENCY', urgencyOrOff, d.wholeMaxUrgency),
    previewFirstMaxBytes: pick(
      'PRIORITY_PREVIEW_FIRST_MAX_BYTES',
      integerIn(0, 16 * 1024 * 1024),
      d.previewFirstMaxBytes,
    ),
    urgentPreview: pick('PRIORITY_URGENT_PREVIEW', priority, d.urgentPreview),
    urgency: pick('PRIORITY_URGENCY', integerIn(0, 7), d.urgency),
    goodImage: {
      coefficients: pick('PRIORITY_GOOD_COEFFICIENTS', integerIn(1, 63), d.goodImage.coefficients),
      maxBitShift: pick('PRIORITY_GOOD_MAX_BIT_SHIFT', integerIn(0, 13), d.goodImage.maxBitShift),
    },
    cacheEntries: pick('PRIORITY_CACHE_ENTRIES', integerIn(0, 100_000), d.cacheEntries),
  };
  return { config, problems };
}
