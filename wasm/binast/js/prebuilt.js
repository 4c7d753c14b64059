// A script's BinaryAST made at build time (`binast prebuild`), bound to the exact JavaScript bytes it was made from,
// so the Worker can serve it without parsing or encoding anything. The file sits beside the script as
// `<script>.binast`:
//
//   "BINAST-PREBUILT\n"                      16 bytes of ASCII
//   {"source":…,"encoding":…, …}\n           one line of JSON, at most `maxHeaderBytes` (PrebuiltHeader)
//   <the encoding>                           a BINJS file, `encodingBytes` long
//
// Both SHA-256s are checked by the reader's caller: `source` against the script the origin sends now (a stale
// sibling from an older build names other bytes), `encoding` against the bytes that follow (a truncated or altered
// upload). Only what the build verified (decode → parse → same tree) is ever written.
import { layoutFormats } from './encode-javascript.js';

/** What a prebuilt file's name adds to its script's. */
export const prebuiltSuffix = '.binast';

const magic = 'BINAST-PREBUILT\n';
/** A header is a few hundred bytes; anything longer is not one of ours. */
export const maxHeaderBytes = 1024;

const hexOf = (/** @type {ArrayBuffer} */ digest) =>
  Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * SHA-256 of `bytes`, lowercase hex (WebCrypto: the same in Node, browsers and workerd).
 * @param {Uint8Array} bytes
 */
export async function sha256OfBytes(bytes) {
  return hexOf(await crypto.subtle.digest('SHA-256', bytes));
}

/**
 * The prebuilt file for `encoding`, made from the script whose bytes are `sourceBytes`.
 * @param {Uint8Array} sourceBytes
 * @param {Uint8Array} encoding
 * @param {{ layout: import('./encode-javascript').Layout, lazyLevel: number }} settings
 * @returns {Promise<Uint8Array>}
 */
export async function writePrebuilt(sourceBytes, encoding, settings) {
  /** @type {import('./prebuilt').PrebuiltHeader} */
  const header = {
    source: await sha256OfBytes(sourceBytes),
    sourceBytes: sourceBytes.byteLength,
    encoding: await sha256OfBytes(encoding),
    encodingBytes: encoding.byteLength,
    layout: settings.layout,
    format: layoutFormats[settings.layout],
    lazyLevel: settings.lazyLevel,
  };
  const head = new TextEncoder().encode(`${magic}${JSON.stringify(header)}\n`);
  const file = new Uint8Array(head.byteLength + encoding.byteLength);
  file.set(head, 0);
  file.set(encoding, head.byteLength);
  return file;
}

const isHex64 = (/** @type {unknown} */ value) => typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
const isCount = (/** @type {unknown} */ value) => Number.isSafeInteger(value) && /** @type {number} */ (value) >= 0;

/**
 * Whether `file` opens as a prebuilt file does (its magic), intact or not: tools that read both kinds of file tell
 * them apart by it.
 * @param {Uint8Array} file
 */
export function isPrebuiltFile(file) {
  return file.byteLength >= magic.length && new TextDecoder().decode(file.subarray(0, magic.length)) === magic;
}

/**
 * Reads a prebuilt file: its header and the encoding after it, checked against the header's length and SHA-256.
 * Never throws; a file that is not a complete, intact prebuilt file says why.
 * @param {Uint8Array} file
 * @returns {Promise<import('./prebuilt').PrebuiltRead>}
 */
export async function readPrebuilt(file) {
  if (!isPrebuiltFile(file)) return { ok: false, reason: 'not a prebuilt BinaryAST file' };
  const limit = Math.min(file.byteLength, magic.length + maxHeaderBytes);
  const end = file.subarray(magic.length, limit).indexOf(0x0a);
  if (end < 0) return { ok: false, reason: `no header line within ${maxHeaderBytes} bytes` };
  /** @type {Record<string, unknown>} */
  let header;
  try {
    const parsed = JSON.parse(
      new TextDecoder('utf-8', { fatal: true }).decode(file.subarray(magic.length, magic.length + end)),
    );
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('not an object');
    header = parsed;
  } catch (error) {
    return { ok: false, reason: `header is not a JSON object: ${String(error)}` };
  }
  const { source, sourceBytes, encoding, encodingBytes, layout, format, lazyLevel } = header;
  if (!isHex64(source) || !isHex64(encoding) || !isCount(sourceBytes) || !isCount(encodingBytes)) {
    return { ok: false, reason: 'header lacks the SHA-256s and lengths' };
  }
  if (typeof layout !== 'string' || !Object.hasOwn(layoutFormats, layout)) {
    return { ok: false, reason: `unknown layout ${String(layout)}` };
  }
  const known = /** @type {import('./encode-javascript').Layout} */ (layout);
  if (format !== layoutFormats[known]) {
    return {
      ok: false,
      reason: `written for ${known} format ${String(format)}, this decoder reads ${layoutFormats[known]} (run binast prebuild again)`,
    };
  }
  if (!Number.isInteger(lazyLevel) || /** @type {number} */ (lazyLevel) < 0 || /** @type {number} */ (lazyLevel) > 3) {
    return { ok: false, reason: `lazy level ${String(lazyLevel)} is not 0-3` };
  }
  const body = file.subarray(magic.length + end + 1);
  if (body.byteLength !== encodingBytes) {
    return { ok: false, reason: `encoding is ${body.byteLength} bytes, the header says ${String(encodingBytes)}` };
  }
  if ((await sha256OfBytes(body)) !== encoding) return { ok: false, reason: 'encoding does not match its SHA-256' };
  return {
    ok: true,
    header: {
      source: /** @type {string} */ (source),
      sourceBytes: /** @type {number} */ (sourceBytes),
      encoding: /** @type {string} */ (encoding),
      encodingBytes: /** @type {number} */ (encodingBytes),
      layout: known,
      format: /** @type {number} */ (format),
      lazyLevel: /** @type {number} */ (lazyLevel),
    },
    encoding: body,
  };
}
