import { maxHeaderBytes, prebuiltSuffix, readPrebuilt, sha256OfBytes } from '@speedkit/binast/prebuilt';
import { readLimited } from '../shared/read-limited';
import { utf8Text, verifyForeignEncoding } from './codec';
import type { BinastConfig } from './config';

/** A prebuilt encoding for one script, or why there is none to use. */
export type PrebuiltLookup =
  | { readonly ok: true; readonly bytes: Uint8Array }
  | { readonly ok: false; readonly reason: string };

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
): Promise<PrebuiltLookup> {
  if (config.prebuilt === 'off') return { ok: false, reason: 'BINAST_PREBUILT=off' };
  if (config.prebuilt === 'verify' && sourceBytes.byteLength > config.maxSourceBytes) {
    return { ok: false, reason: `over BINAST_MAX_SOURCE_BYTES=${config.maxSourceBytes} to verify` };
  }
  const sibling = new URL(url);
  sibling.pathname += prebuiltSuffix;
  let response: Response;
  try {
    // Without the visitor's headers: the file is the site's build output, the same for everyone.
    response = await fetchSibling(new Request(sibling, { method: 'GET' }));
  } catch (error) {
    return { ok: false, reason: `fetching ${sibling.pathname} failed: ${String(error)}` };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    return { ok: false, reason: `${sibling.pathname} answered ${response.status}` };
  }
  // An encoding is never larger than a few times its script; the allowance is for tiny scripts and the header.
  const file = await readLimited(response, 4 * sourceBytes.byteLength + maxHeaderBytes + 64 * 1024);
  if (!file) return { ok: false, reason: `${sibling.pathname} is larger than its script could need` };
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
