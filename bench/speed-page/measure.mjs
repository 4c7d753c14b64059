// One page load in a fresh browser context (cold cache): screen frames from the CDP screencast, navigation and paint
// timing, LCP, layout shifts, long tasks, and every response's bytes from CDP's Network domain.
import { readFileSync } from 'node:fs';
import { labErrorHeader, labRetryHeader } from '../priority/lab/upstream.mjs';
import { siteUrlNamer } from './addressing.mjs';
import {
  bodyShareArrivalMs,
  bodySharesPct,
  bytesByClass,
  cumulativeLayoutShift,
  totalBlockingTime,
} from './page-metrics.mjs';
import { userAgentOf } from './profiles.mjs';

const observerScript = readFileSync(new URL('./observer.js', import.meta.url), 'utf8');
/** After load, the page counts as settled once no frame has arrived and no request was open for this long. */
const quietMs = 1500;
/**
 * A request open this long no longer holds the load open (a long poll, an analytics beacon's stream, a chat widget's
 * connection): a page that keeps one would otherwise run into the timeout on every load.
 */
const longLivedMs = 10_000;

/**
 * `SPEED_PAGE_TRACE=1` prints each step of every load (and how long since the load began) to stderr: where a stalled
 * lab stands.
 * @param {string} step @param {number} startMs
 */
function trace(step, startMs) {
  if (process.env.SPEED_PAGE_TRACE)
    process.stderr.write(`speed-page trace: ${step} (+${((performance.now() - startMs) / 1000).toFixed(1)} s)\n`);
}

/**
 * Requests the page's CDP session did not report (those of its dedicated Workers), with their bytes from
 * Playwright (body + headers as received), so a Worker's downloads count in the page's bytes too.
 * @param {import('@playwright/test').Request[]} seen @param {Map<string, RequestEntry>} fromCdp
 * @param {Map<import('@playwright/test').Request, number>} open requests still open: their sizes would never come
 */
async function requestsOnlyPlaywrightSaw(seen, fromCdp, open) {
  const known = new Set([...fromCdp.values()].filter((r) => !Number.isNaN(r.endMs)).map((r) => r.url));
  /** @type {RequestEntry[]} */
  const extra = [];
  for (const request of seen) {
    if (known.has(request.url()) || open.has(request)) continue;
    const sizes = await request.sizes().catch(() => null);
    const response = await request.response().catch(() => null);
    extra.push({
      cdpType: request.resourceType() === 'fetch' ? 'Fetch' : 'Other',
      mimeType: (await response?.headerValue('content-type').catch(() => null)) ?? '',
      encodedBytes: sizes ? sizes.responseBodySize + sizes.responseHeadersSize : 0,
      url: request.url(),
      status: response?.status() ?? 0,
      initialPriority: 'n/a (a Worker)',
      priority: 'n/a (a Worker)',
      priorityHeader: '',
      startMs: Number.NaN,
      firstByteMs: Number.NaN,
      endMs: Number.NaN,
      chunks: [],
    });
  }
  return extra;
}

/** A URL's path and query for the timeline (data: and blob: URLs shortened). @param {string} url */
function pathOf(url) {
  if (!/^https?:/.test(url)) return url.slice(0, 40);
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

/**
 * @typedef {{ name: string, viewport: { width: number, height: number }, deviceScaleFactor: number,
 *   isMobile: boolean, cpuSlowdown: number }} BrowserProfile
 * @typedef {{ timeMs: number, jpeg: Buffer }} Frame
 */

/**
 * @typedef {{ cdpType: string, mimeType: string, encodedBytes: number, url: string, status: number, protocol?: string,
 *   initialPriority: string, priority: string, priorityHeader: string, startMs: number, firstByteMs: number,
 *   endMs: number, chunks: [timeMs: number, bytes: number][], stillOpen?: boolean, labError?: string,
 *   labRetried?: string }} RequestEntry
 */

/**
 * One page load: a fresh context with the profile's screen, User-Agent and CPU, requests and screen frames recorded until the
 * page has settled, then the metrics.
 * Every URL of the site's own in its messages and lists is named as the site's (`site`), not the lab's address for
 * the variant (addressing.mjs `siteUrlNamer`).
 * @param {import('@playwright/test').Browser} browser
 * @param {string} url the address the lab opens (pageUrlOf)
 * @param {BrowserProfile} profile
 * @param {{ timeoutMs: number, site?: URL }} options `site`: the address the user gave (default `url`)
 */
export async function loadPage(browser, url, profile, { timeoutMs, site = new URL(url) }) {
  const onSite = siteUrlNamer(url, site);
  const startMs = performance.now();
  trace(`load ${onSite(url)}: new context`, startMs);
  const context = await browser.newContext({
    viewport: profile.viewport,
    deviceScaleFactor: profile.deviceScaleFactor,
    isMobile: profile.isMobile,
    hasTouch: profile.isMobile,
    userAgent: userAgentOf(profile, browser.version()),
    ignoreHTTPSErrors: true,
  });
  try {
    await context.addInitScript(observerScript);
    const page = await context.newPage();
    // Uncaught script errors: a variant that breaks the page (a script run before the one it needs) must not pass
    // for a faster one.
    /** @type {string[]} */
    const pageErrors = [];
    // The lab opens each variant at its own address (addressing.mjs): named in a message, it made the same error
    // read as a different one in every variant, and run.mjs then said each Worker variant broke the page. Named as
    // the site's, it is the same in every variant and says which URL.
    page.on('pageerror', (error) => pageErrors.push(onSite(error.message).slice(0, 200)));
    const cdp = await context.newCDPSession(page);
    const activity = { lastMs: performance.now() };
    const tracked = await trackRequests(page, cdp, activity);
    if (profile.cpuSlowdown > 1) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpuSlowdown });
      await throttleOtherFrames(cdp, profile.cpuSlowdown);
    }
    const captured = await startScreencast(cdp, profile, activity);
    const documents = await trackDocuments(cdp);
    trace('navigating', startMs);
    const response = await page.goto(url, { waitUntil: 'load', timeout: timeoutMs }).catch((error) => {
      if (error?.name !== 'TimeoutError') throw new Error(navigationFailure(error, url, tracked.requests, onSite));
      // Playwright's message names only the lab's address: say what held the page (an image, script or frame
      // that never finishes keeps the load event from firing).
      const open = [...tracked.openRequests.keys()].map((request) => onSite(request.url()));
      throw new Error(
        `the page's load event did not fire within ${timeoutMs / 1000} s; ` +
          (open.length > 0 ? `still open: ${open.slice(0, 5).join(', ')}` : 'no request was open'),
      );
    });
    if (!response) throw new Error(`no response for ${onSite(url)}`);
    if (response.status() >= 400) {
      // The lab's HTTP/2 front answers 502 itself, marked, when wrangler dev gave no answer even on a second try: that
      // is the lab failing, not the site or the Worker, and the message says so.
      const labError = await response.headerValue(labErrorHeader);
      throw new Error(
        labError
          ? `the lab's front got no answer from wrangler dev for the page (${onSite(url)}): ${labError}`
          : `the page answered HTTP ${response.status()} (${onSite(url)})`,
      );
    }
    trace('loaded; waiting until settled', startMs);
    const settledBy = await waitUntilSettled(page, tracked.openRequests, activity, timeoutMs);
    trace(`settled (${settledBy}); reading timing`, startMs);
    if (documents.length > 1) {
      // Named as the site's: the lab's address for the variant is one the user cannot pass.
      const where = onSite(String(documents.at(-1)));
      throw new Error(
        `the page moved on by itself (a meta refresh or a script) to ${where}: pass the address it ends on`,
      );
    }
    const timing = await readNavigationTiming(page, timeoutMs);
    trace('stopping the screencast', startMs);
    await cdp.send('Page.stopScreencast');
    trace('collecting requests', startMs);
    const all = await allRequests(tracked);
    return {
      ...pageResult(timing, all, settledBy, framesSinceOrigin(captured, timing.timeOriginEpochMs), onSite),
      pageErrors,
    };
  } finally {
    trace('closing the context', startMs);
    await context.close();
    trace('context closed', startMs);
  }
}

/** What Chromium's network errors for the page itself mean, for the few a site (or a Worker in front of it) causes. */
const netErrors = /** @type {Record<string, string>} */ ({
  ERR_HTTP_RESPONSE_CODE_FAILURE: 'an error status with an empty body',
  ERR_EMPTY_RESPONSE: 'the connection closed without an answer',
  ERR_CONNECTION_REFUSED: 'the connection was refused',
  ERR_CONNECTION_RESET: 'the connection was reset',
  ERR_TOO_MANY_REDIRECTS: 'too many redirects',
});

/**
 * One sentence for a navigation that failed, instead of Playwright's message (its "page.goto:" prefix and a call log
 * in terminal colours, e.g. when a Worker answered the page with a 500 and no body): Chromium's error, what it
 * means, and the page's status when one came.
 * @param {unknown} error @param {string} url @param {Map<string, RequestEntry>} requests
 * @param {(text: string) => string} onSite names the site's URLs as the site's
 */
function navigationFailure(error, url, requests, onSite) {
  const message = error instanceof Error ? error.message : String(error);
  const code = /net::(ERR_[A-Z_]+)/.exec(message)?.[1];
  if (!code) return onSite(message.split('\n')[0]);
  const status = [...requests.values()].find((r) => r.cdpType === 'Document' && r.url === url)?.status;
  const meaning = [netErrors[code], status ? `HTTP ${status}` : ''].filter(Boolean).join(', ');
  return `the page did not load: ${code}${meaning ? ` (${meaning})` : ''} at ${onSite(url)}`;
}

/**
 * The CPU slowdown for the page's frames in other renderer processes too: Emulation.setCPUThrottlingRate slows the
 * process of the target it is sent to, and a cross-site iframe (an ad, a video or map embed) has its own, which ran
 * at full speed on the mobile profile until 2026-11-28. Each such frame is attached as it starts, paused until it
 * has the rate. (Dedicated and service Workers stay at full speed: Chromium slows a renderer's main thread only.)
 * @param {import('@playwright/test').CDPSession} cdp the page's session @param {number} rate
 */
async function throttleOtherFrames(cdp, rate) {
  let nextId = 1;
  /** @param {string} sessionId @param {string} method @param {object} [params] */
  const sendTo = (sessionId, method, params = {}) =>
    cdp
      .send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id: nextId++, method, params }) })
      .catch(() => {});
  cdp.on('Target.attachedToTarget', ({ sessionId, targetInfo, waitingForDebugger }) => {
    // Sent in order on one session: the frame runs only once it has the rate.
    if (targetInfo.type === 'iframe') sendTo(sessionId, 'Emulation.setCPUThrottlingRate', { rate });
    if (waitingForDebugger) sendTo(sessionId, 'Runtime.runIfWaitingForDebugger');
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: true, flatten: false });
}

/**
 * Records every request: bytes, status, protocol, priority and timeline from the page's CDP session, and which are
 * still open from Playwright's events. Unlike the page's CDP session, Playwright also reports the requests of the
 * page's dedicated Workers and its service worker (the BinaryAST loader decodes in one and fetches its Wasm from there), whose completion
 * the page session never reports — counting those through CDP kept a load "open" until the 60 s timeout.
 * @param {import('@playwright/test').Page} page
 * @param {import('@playwright/test').CDPSession} cdp
 * @param {{ lastMs: number }} activity when anything last happened (performance.now() ms), moved on by every event
 */
async function trackRequests(page, cdp, activity) {
  /** @type {Map<string, RequestEntry>} */
  const requests = new Map();
  /** @type {Map<import('@playwright/test').Request, number>} each open request and when it started (performance.now() ms) */
  const openRequests = new Map();
  /** @type {import('@playwright/test').Request[]} */
  const seenRequests = [];
  const touch = () => {
    activity.lastMs = performance.now();
  };
  // The context's events, not the page's: they also carry the requests of the page's service worker (its script and
  // what it fetches when it installs, e.g. a PWA's precache on the first visit), which cross the link during the load
  // like the page's own and were neither counted nor waited for until 2026-11-28. The context holds this page only.
  const context = page.context();
  context.on('request', (request) => {
    openRequests.set(request, performance.now());
    seenRequests.push(request);
    touch();
  });
  const settle = (/** @type {import('@playwright/test').Request} */ request) => {
    openRequests.delete(request);
    touch();
  };
  context.on('requestfinished', settle);
  context.on('requestfailed', settle);
  /** CDP's monotonic clock (s) at the first request (the document): the zero of every request's timeline. */
  let zeroS = Number.NaN;
  const sinceZeroMs = (/** @type {number} */ timestampS) => Math.round((timestampS - zeroS) * 1000);
  await cdp.send('Network.enable');
  cdp.on('Network.requestWillBeSent', ({ requestId, type, request, timestamp }) => {
    if (Number.isNaN(zeroS)) zeroS = timestamp;
    requests.set(requestId, {
      cdpType: type ?? 'Other',
      mimeType: '',
      encodedBytes: 0,
      url: request.url,
      status: 0,
      // Chromium's own view of how important the request is, and the RFC 9218 header it sent with it.
      initialPriority: request.initialPriority,
      priority: request.initialPriority,
      priorityHeader: '',
      startMs: sinceZeroMs(timestamp),
      firstByteMs: Number.NaN,
      endMs: Number.NaN,
      chunks: [],
    });
    touch();
  });
  /** Requests whose headers say they fetch an image without being an image of the page: the browser's favicon. */
  const imageDestinations = new Set();
  cdp.on('Network.requestWillBeSentExtraInfo', ({ requestId, headers }) => {
    const entry = requests.get(requestId);
    if (entry) entry.priorityHeader = headers.priority ?? headers.Priority ?? '';
    // May come before or after requestWillBeSent: kept by id. Chromium sends Sec-Fetch-Dest to secure contexts only;
    // elsewhere (origin direct of an http site, opened at the lab server's address) an image is told by its Accept.
    const destination = headers['sec-fetch-dest'] ?? headers['Sec-Fetch-Dest'];
    const accept = String(headers.accept ?? headers.Accept ?? '');
    if (destination === 'image' || (destination === undefined && accept.startsWith('image/')))
      imageDestinations.add(requestId);
  });
  cdp.on('Network.resourceChangedPriority', ({ requestId, newPriority }) => {
    const entry = requests.get(requestId);
    if (entry) entry.priority = newPriority;
  });
  cdp.on('Network.responseReceived', ({ requestId, type, response, timestamp }) => {
    const entry = requests.get(requestId);
    if (!entry) return;
    entry.cdpType = type;
    entry.mimeType = response.mimeType ?? '';
    entry.status = response.status;
    // The lab's HTTP/2 front got no answer from wrangler dev (upstream.mjs): the lab failed, not the site.
    const labError = response.headers?.[labErrorHeader];
    if (labError) entry.labError = String(labError);
    const labRetried = response.headers?.[labRetryHeader];
    if (labRetried) entry.labRetried = String(labRetried);
    entry.protocol = response.protocol;
    entry.firstByteMs = sinceZeroMs(timestamp);
  });
  // Body bytes as they arrive (decoded bytes: images are not content-encoded), so the timeline can say when a share of
  // each body — e.g. a progressive JPEG's preview — was in, not only its first and last byte.
  cdp.on('Network.dataReceived', ({ requestId, dataLength, timestamp }) => {
    requests.get(requestId)?.chunks.push([sinceZeroMs(timestamp), dataLength]);
  });
  /** @param {{ requestId: string, encodedDataLength?: number, timestamp: number }} event */
  const finish = ({ requestId, encodedDataLength, timestamp }) => {
    const entry = requests.get(requestId);
    if (entry && encodedDataLength !== undefined) entry.encodedBytes = encodedDataLength;
    if (entry) entry.endMs = sinceZeroMs(timestamp);
    touch();
  };
  cdp.on('Network.loadingFinished', finish);
  cdp.on('Network.loadingFailed', finish);
  /**
   * Chromium fetches a favicon (`/favicon.ico`, or the page's `<link rel=icon>`) for the browser's own use, as a
   * request of type Other whose destination is an image, and only for some pages: for an http page, not for the
   * Worker variants' https pages with the lab's certificate. It is no part of the page's load; counted, it gave
   * origin direct a request (and on a site without one a failed request) the other variants did not have.
   */
  const isFavicon = (/** @type {string} */ id, /** @type {RequestEntry} */ r) =>
    r.cdpType === 'Other' && imageDestinations.has(id);
  return { requests, openRequests, seenRequests, isFavicon };
}

/**
 * The main frame's documents, in order. A page that loads another by itself once opened (a meta refresh,
 * `location.href = …`: a locale or consent gate) has two, and its timings and frames would be the second page's
 * against both pages' bytes, as until 2026-11-28; a URL rewritten in place (history.pushState) is no new document.
 * @param {import('@playwright/test').CDPSession} cdp the page's session
 */
async function trackDocuments(cdp) {
  /** @type {string[]} */
  const urls = [];
  cdp.on('Page.frameNavigated', ({ frame }) => {
    if (!frame.parentId) urls.push(frame.url);
  });
  await cdp.send('Page.enable');
  return urls;
}

/**
 * Starts the CDP screencast (every frame, JPEG) and returns the list its frames are pushed to, stamped with the
 * wall clock (ms since the epoch).
 * @param {import('@playwright/test').CDPSession} cdp
 * @param {BrowserProfile} profile
 * @param {{ lastMs: number }} activity
 */
async function startScreencast(cdp, profile, activity) {
  /** @type {{ epochMs: number, jpeg: Buffer }[]} */
  const captured = [];
  cdp.on('Page.screencastFrame', ({ data, metadata, sessionId }) => {
    captured.push({ epochMs: (metadata.timestamp ?? Date.now() / 1000) * 1000, jpeg: Buffer.from(data, 'base64') });
    activity.lastMs = performance.now();
    cdp.send('Page.screencastFrameAck', { sessionId }).catch(() => {});
  });
  await cdp.send('Page.startScreencast', {
    format: 'jpeg',
    quality: 70,
    maxWidth: Math.min(profile.viewport.width, 683),
    maxHeight: Math.min(profile.viewport.height, 844),
    everyNthFrame: 1,
  });
  return captured;
}

/**
 * After load, waits until nothing (request or frame) happened for `quietMs` and no request is open, or only requests
 * open for `longLivedMs` or more.
 * @param {import('@playwright/test').Page} page
 * @param {Map<unknown, number>} openRequests each open request's start (performance.now() ms)
 * @param {{ lastMs: number }} activity
 * @param {number} timeoutMs
 * @returns {Promise<'quiet' | 'timeout'>}
 */
async function waitUntilSettled(page, openRequests, activity, timeoutMs) {
  const loadedMs = performance.now();
  while (performance.now() - loadedMs < timeoutMs) {
    const nowMs = performance.now();
    const holding = [...openRequests.values()].some((startMs) => nowMs - startMs < longLivedMs);
    if (!holding && nowMs - activity.lastMs >= quietMs) return 'quiet';
    await page.waitForTimeout(100);
  }
  return 'timeout';
}

/**
 * Navigation timing and what observer.js recorded in the page, or a failure once `timeoutMs` (ms) has passed: a page
 * whose main thread never comes back (a script looping) answers no evaluate, and Playwright gives it no deadline, so
 * the lab waited for it forever.
 * @param {import('@playwright/test').Page} page @param {number} timeoutMs
 */
async function readNavigationTiming(page, timeoutMs) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const busy = new Promise((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the page's main thread did not answer within ${timeoutMs / 1000} s after its load (a script busy in a loop?)`,
          ),
        ),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([navigationTiming(page), busy]);
  } finally {
    clearTimeout(timer);
  }
}

/** @param {import('@playwright/test').Page} page */
function navigationTiming(page) {
  return page.evaluate(() => {
    const nav = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
    return {
      timeOriginEpochMs: performance.timeOrigin,
      ttfbMs: nav.responseStart,
      domContentLoadedMs: nav.domContentLoadedEventStart,
      loadMs: nav.loadEventStart,
      protocol: nav.nextHopProtocol,
      // @ts-expect-error -- filled by observer.js
      record: window.__speedPage,
    };
  });
}

/**
 * Frames in ms since the page's time origin, in order, without those from before it.
 * @param {{ epochMs: number, jpeg: Buffer }[]} captured @param {number} timeOriginEpochMs
 * @returns {Frame[]}
 */
function framesSinceOrigin(captured, timeOriginEpochMs) {
  return captured
    .map((frame) => ({ timeMs: frame.epochMs - timeOriginEpochMs, jpeg: frame.jpeg }))
    .filter((frame) => frame.timeMs >= 0)
    .sort((a, b) => a.timeMs - b.timeMs);
}

/**
 * The page's requests and its Workers': a Worker's script is announced to the page session but finishes in the
 * Worker's, so Playwright's record of it replaces the unfinished CDP one.
 * @param {Awaited<ReturnType<typeof trackRequests>>} tracked
 * @returns {Promise<RequestEntry[]>}
 */
async function allRequests({ requests, seenRequests, openRequests, isFavicon }) {
  const favicons = new Set([...requests].filter(([id, r]) => isFavicon(id, r)).map(([, r]) => r.url));
  for (const [id, r] of requests) if (isFavicon(id, r)) requests.delete(id);
  const fromWorkers = (await requestsOnlyPlaywrightSaw(seenRequests, requests, openRequests)).filter(
    (r) => !favicons.has(r.url),
  );
  const replaced = new Set(fromWorkers.map((r) => r.url));
  // Long-lived requests still open when the load settled: neither finished nor failed.
  const openUrls = new Set([...openRequests.keys()].map((request) => request.url()));
  const fromPage = [...requests.values()]
    .filter((r) => !(Number.isNaN(r.endMs) && replaced.has(r.url)))
    .map((r) => (Number.isNaN(r.endMs) && openUrls.has(r.url) ? { ...r, stillOpen: true } : r));
  return [...fromPage, ...fromWorkers];
}

/**
 * The run's metrics from the page's timing record, its requests and its frames.
 * @param {Awaited<ReturnType<typeof readNavigationTiming>>} timing
 * @param {RequestEntry[]} all
 * @param {'quiet' | 'timeout'} settledBy
 * @param {Frame[]} frames
 * @param {(text: string) => string} onSite names the site's URLs as the site's
 */
function pageResult(timing, all, settledBy, frames, onSite) {
  const { record } = timing;
  const fcpMs = record.fcpMs ?? Number.NaN;
  const lcp = record.lcp.at(-1);
  return {
    protocol: timing.protocol,
    ttfbMs: timing.ttfbMs,
    fcpMs,
    lcpMs: lcp?.timeMs ?? Number.NaN,
    lcpElement: onSite(lcp?.element ?? ''),
    // The lab gives the page no input, yet Chromium marks shifts in the first half second after the emulated phone
    // screen is applied to a new document as following input, and CLS would leave them out (mobile read 0 for a
    // shift soon after the first paint that desktop counted): every shift counts, as in Lighthouse.
    cls: cumulativeLayoutShift(
      record.shifts.map((/** @type {{ startTimeMs: number, value: number }} */ shift) => ({
        ...shift,
        hadRecentInput: false,
      })),
    ),
    tbtMs: totalBlockingTime(record.longTasks, fcpMs),
    domContentLoadedMs: timing.domContentLoadedMs,
    loadMs: timing.loadMs,
    byClass: bytesByClass(all),
    totalBytes: all.reduce((sum, r) => sum + r.encodedBytes, 0),
    requests: all.length,
    marks: /** @type {{ name: string, timeMs: number }[]} */ (record.marks),
    failedRequests: all
      .filter((r) => !r.stillOpen && (r.status === 0 || r.status >= 400))
      .map((r) => `${r.status} ${onSite(r.url)}`),
    openAtEnd: all.filter((r) => r.stillOpen).map((r) => onSite(r.url)),
    // Requests the lab itself failed (its front had no answer from wrangler dev): such a run is not the page's.
    labErrors: all.filter((r) => r.labError).map((r) => `${onSite(r.url)}: ${r.labError}`),
    // Requests its front had to send twice (the first got no answer from wrangler dev): their delay is the lab's.
    labRetries: all.filter((r) => r.labRetried).map((r) => `${onSite(r.url)}: ${r.labRetried}`),
    // Per request, ms from the document request: when it started, its first and last byte, and its priority.
    requestTimeline: all.map((r) => ({
      path: pathOf(r.url),
      // The whole URL, the site's named as the site's: the path alone left a third party's `/a.js` looking like the
      // site's own.
      url: /^https?:/.test(r.url) ? onSite(r.url) : pathOf(r.url),
      type: r.cdpType,
      initialPriority: r.initialPriority,
      priority: r.priority,
      priorityHeader: r.priorityHeader,
      startMs: r.startMs,
      firstByteMs: r.firstByteMs,
      endMs: r.endMs,
      bytes: r.encodedBytes,
      // ms from the document request at which 10 / 25 / 50 % of the body had arrived
      bodyShareMs: Object.fromEntries(bodySharesPct.map((pct) => [pct, bodyShareArrivalMs(r.chunks, pct)])),
    })),
    settledBy,
    frames,
  };
}
