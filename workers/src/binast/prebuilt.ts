import { maxHeaderBytes, prebuiltSuffix, readPrebuilt, sha256OfBytes } from '@speedkit/binast/prebuilt';
import { readLimited } from '../shared/read-limited';
import { utf8Text, verifyForeignEncoding } from './codec';
import type { BinastConfig } from './config';

/**
 * A prebuilt encoding for one script, or why there is none to use; `transient` when the file could not be had this
 * time (no answer within the deadline, a network error, a 5xx or 429, a body that broke off), not because it is
 * missing or unusable: the caller must not remember that as the script's verdict.
 */
export type PrebuiltLookup =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string; readonly transient?: true };

/**
 * The encoding in `<script>.binast` beside the script at `url` (the query kept: `app.js?v=2` → `app.js.binast?v=2`),
 * when it was made for exactly `sourceBytes` with this deployment's layout and lazy level, arrived intact, and passes
 * the check `config.prebuilt` asks for. Never throws: anything else is a reason, and the caller encodes itself.
 * `fetchSibling` is the same origin the script came from (the static assets, or the site owner's server).
 */
export async function prebuiltEncoding(
  url: URL,
  sourceBytes: Uint8Array,
  config: BinastConfig,
  fetchSibling: (request: Request) => Promise<Response>,
  deadlineMs = siblingDeadlineMs,
): Promise<PrebuiltLookup> {
  if (config.prebuilt === 'off') return { ok: false, reason: 'BINAST_PREBUILT=off' };
  if (config.prebuilt === 'verify' && sourceBytes.byteLength > config.maxSourceBytes) {
    return { ok: false, reason: `over BINAST_MAX_SOURCE_BYTES=${config.maxSourceBytes} to verify` };
  }
  const sibling = new URL(url);
  sibling.pathname += prebuiltSuffix;
  const fetched = await fetchWithin(sibling, sourceBytes.byteLength, fetchSibling, deadlineMs);
  if (!fetched.ok) return fetched;
  const file = fetched.bytes;
  const read = await readPrebuilt(file);
  if (!read.ok) return { ok: false, reason: `${sibling.pathname}: ${read.reason}` };
  const { header } = read;
  if (header.layout !== config.layout || header.lazyLevel !== config.lazyLevel) {
    const want = `${config.layout} lazy ${config.lazyLevel}`;
    return { ok: false, reason: `${sibling.pathname} is ${header.layout} lazy ${header.lazyLevel}, not ${want}` };
  }
  if (header.sourceBytes !== sourceBytes.byteLength || header.source !== (await sha256OfBytes(sourceBytes))) {
    return { ok: false, reason: `${sibling.pathname} was made from other bytes (an older build?)` };
  }
  if (config.prebuilt === 'verify') {
    try {
      verifyForeignEncoding(utf8Text(sourceBytes), url.pathname, read.encoding);
    } catch (error) {
      return { ok: false, reason: `${sibling.pathname} failed the tree check: ${String(error)}` };
    }
  }
  return { ok: true, bytes: read.encoding };
}

/**
 * How long the prebuilt file may take to arrive, answer and body. Without a bound, an origin that never answers an
 * unknown path (some hold such requests open) kept every miss's encode waiting until the runtime ended it with the
 * request's `waitUntil` (30 s): no script of the site was ever encoded. This leaves most of those 30 s to the encode.
 */
export const siblingDeadlineMs = 10_000;

/** The prebuilt file's bytes as `prebuiltEncoding` reads them, or why there are none, within `deadlineMs`. */
async function fetchWithin(
  sibling: URL,
  scriptBytes: number,
  fetchSibling: (request: Request) => Promise<Response>,
  deadlineMs: number,
): Promise<PrebuiltLookup> {
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<PrebuiltLookup>((resolve) => {
    timer = setTimeout(() => {
      abort.abort();
      resolve({ ok: false, reason: `${sibling.pathname} took over ${deadlineMs} ms`, transient: true });
    }, deadlineMs);
  });
  const read = async (): Promise<PrebuiltLookup> => {
    let response: Response;
    try {
      // Without the visitor's headers: the file is the site's build output, the same for everyone.
      response = await fetchSibling(new Request(sibling, { method: 'GET', signal: abort.signal }));
    } catch (error) {
      return { ok: false, reason: `fetching ${sibling.pathname} failed: ${String(error)}`, transient: true };
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      const reason = `${sibling.pathname} answered ${response.status}`;
      return isTransientStatus(response.status) ? { ok: false, reason, transient: true } : { ok: false, reason };
    }
    // An encoding is never larger than a few times its script; the allowance is for tiny scripts and the header.
    const file = await readLimited(response, 4 * scriptBytes + maxHeaderBytes + 64 * 1024);
    if (!file) return { ok: false, reason: `${sibling.pathname} is larger than its script could need` };
    return { ok: true, bytes: file };
  };
  try {
    // The origin's fetch stops on the abort; a `fetchSibling` that ignores it is left behind, never waited for.
    return await Promise.race([read().catch((error: unknown) => failedRead(sibling, error)), late]);
  } finally {
    clearTimeout(timer);
  }
}

const failedRead = (sibling: URL, error: unknown): PrebuiltLookup => ({
  ok: false,
  reason: `reading ${sibling.pathname} failed: ${String(error)}`,
  transient: true,
});

/** An answer that says "not now" rather than "no such file": a server error, or too many requests. */
const isTransientStatus = (status: number) => status >= 500 || status === 429;
