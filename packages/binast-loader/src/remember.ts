// `binast-remember.js`, beside the decoder: what one view of a page leaves for the next. The loader imports it once
// its scripts ran and the page has loaded, so none of this is on the page's critical path or in the loader's 2 KB.
// It writes the link cookie (model.ts `linkCookie`) from which the Worker decides the next view's preloads and which
// it hands to the next view's loader in the size hints, and loads the decoder once (its Worker stopped again) when
// BinaryAST would win on this link with the decoder cached: the next deploy's scripts (new URLs, nothing in the HTTP
// cache) can then come as BinaryAST. It also notes which scripts ran as plain
// JavaScript (model.ts `plainCookie`), and sends the records to the page's beacon URL when the page hides.
import type { DecoderModule } from './decoder';
import { type CostInput, decide, linkCookie, mergePlainKeys, plainCookie, readPlainCookie, scriptKey } from './model';
import type { ScriptRecord } from './record';
import { decoderMarked, setSiteCookie } from './visitor-marks';

/** How long a link measurement is trusted, s: a day, since connections change (Wi-Fi at home, mobile outside). */
const linkCookieMaxAgeS = 86_400;
/** How long the plain-script cookie lives, s: a week, as the decoder cookie (a usual lifetime in the HTTP cache). */
const plainCookieMaxAgeS = 604_800;
/** Responses smaller than this measure latency more than throughput (a few TCP round trips), bytes. */
const minMeasuredBytes = 10_000;

/**
 * One response from Resource Timing: first and last byte (ms), body size and bytes on the wire (headers included,
 * 0 from the cache, a few hundred for a revalidation whose body came from the cache).
 */
export interface BodyTiming {
  responseStart: number;
  responseEnd: number;
  encodedBodySize: number;
  transferSize: number;
}

/**
 * The link's throughput from what this view downloaded, Mbit/s (0 when nothing large enough came over the network):
 * the bytes of responses over `minMeasuredBytes` that came over the network, over the time at least one of them was
 * arriving. Overlapping
 * downloads are counted together, so the figure reads the link rather than each response's share of it — shares
 * would make a fast link look slow, the one mistake that makes BinaryAST cost time.
 */
export function measureLinkMbit(bodies: readonly BodyTiming[]): number {
  let bytes = 0;
  let busyMs = 0;
  let busyUntilMs = 0;
  const large = bodies
    // Only bodies that crossed the network: a cached or revalidated body "arrives" far faster than any link.
    .filter((body) => body.encodedBodySize > minMeasuredBytes && body.transferSize > body.encodedBodySize)
    .sort((a, b) => a.responseStart - b.responseStart);
  for (const { responseStart, responseEnd, encodedBodySize } of large) {
    bytes += encodedBodySize;
    busyMs += Math.max(0, responseEnd - Math.max(responseStart, busyUntilMs));
    busyUntilMs = Math.max(busyUntilMs, responseEnd);
  }
  // bytes × 8 / 1000 = kbit; kbit per ms = Mbit/s.
  return busyMs > 0 ? (bytes * 8e-3) / busyMs : 0;
}

/**
 * Whether fetching the decoder now pays on a later view: some script of this page would go to BinaryAST on this
 * link with the decoder cached (the loader's own model, so the two never disagree).
 */
export const decoderWouldWin = (records: readonly Partial<CostInput>[], downMbit: number) =>
  records.some((record) => decide({ ...record, downMbit, preloaded: false, decoderCached: true }).reason === 'faster');

/**
 * `jsBytes` and `binastBytes` of a size hint (`"<js> <binast>[ …]"`; NaN, which the model takes for no hint, when
 * missing or malformed): the loader keeps no sizes in the record of a script the Worker wrote back (`native`, its
 * 2 KB), so they are read from the element's hint here.
 */
export function hintedSizes(hint: string | undefined): Pick<CostInput, 'jsBytes' | 'binastBytes'> {
  const [jsBytes = Number.NaN, binastBytes = Number.NaN] = (hint ?? '').split(' ').map(Number);
  return { jsBytes, binastBytes };
}

/** The decoder beside this module, as the loader imports it (`binast.js`); it marks itself in localStorage once it ran. */
const decoderUrl = new URL('binast.js', import.meta.url).href;

/**
 * The keys (model.ts `scriptKey`) of the same-origin scripts whose plain JavaScript this view downloaded or found in
 * the HTTP cache: run plain by the loader or written back by the Worker (`plain`), or after a failed BinaryAST
 * attempt (`fallback`). A `js` answer came for BinaryAST's `Accept`, which the HTTP cache keeps apart. Only scripts
 * with a size hint (`jsBytes`): the Worker looks a script up by its path, query and hinted size.
 */
export function plainKeys(records: readonly ScriptRecord[], origin: string): string[] {
  const keys: string[] = [];
  for (const { outcome, url: src, jsBytes } of records) {
    if ((outcome !== 'plain' && outcome !== 'fallback') || !(Number(jsBytes) > 0)) continue;
    // A record's URL is the element's resolved `src`; anything unparsable is skipped rather than losing the rest
    // (URL.canParse is newer than the browsers the loader runs in).
    try {
      const url = new URL(src);
      if (url.origin === origin) keys.push(scriptKey(url.pathname + url.search, Number(jsBytes)));
    } catch {}
  }
  return keys;
}

export default function remember(records: ScriptRecord[], beaconUrl?: string): void {
  // pagehide is the last reliable moment; a page restored from the back/forward cache reports again, with updates.
  // Registered here, once the page has loaded, to keep it out of the loader's 2 KB: a page left before its load
  // event sends nothing.
  if (beaconUrl) addEventListener('pagehide', () => navigator.sendBeacon(beaconUrl, JSON.stringify(records)));
  // A written-back script's record has neither sizes nor the streaming flag the loader's model input would carry.
  const scripts = [...document.scripts];
  const streams = !!(self.WebAssembly as { Suspending?: unknown } | undefined)?.Suspending;
  const sized = records.map((record) =>
    record.reason === 'native'
      ? {
          ...record,
          streams,
          ...hintedSizes(scripts.find((script) => script.src === record.url)?.dataset.binastSize),
        }
      : record,
  );
  const ranPlain = plainKeys(sized, location.origin);
  const earlier = readPlainCookie(document.cookie);
  if (ranPlain.some((key) => !earlier.includes(key)))
    setSiteCookie(plainCookie, mergePlainKeys(ranPlain, earlier), plainCookieMaxAgeS);
  const downMbit = measureLinkMbit(performance.getEntriesByType('resource') as PerformanceResourceTiming[]);
  // A view that downloaded nothing large (a repeat view, from the cache) keeps the earlier measurement.
  if (!downMbit) return;
  setSiteCookie(linkCookie, downMbit.toFixed(1), linkCookieMaxAgeS);
  if (!decoderMarked(decoderUrl) && decoderWouldWin(sized, downMbit))
    import(/* @vite-ignore */ decoderUrl)
      .then((decoder: Pick<DecoderModule, 'warm'>) => decoder.warm())
      .catch(() => {});
}
