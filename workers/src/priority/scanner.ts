import { readAvifHeader } from '../shared/image-header/avif';
import { type ImageFormat, magicNumberBytes, magicNumberFormat } from '../shared/image-header/format';
import { readGifHeader, readPngHeader, readWebpHeader } from '../shared/image-header/png-gif-webp';
import type { HeaderScan } from '../shared/image-header/scan';
import { defaultGoodImageRule, type GoodImageRule, JpegScanner } from './jpeg';
import { headerOnly, type ImageScanner, invalid, more, type ScanResult } from './layout';

type HeaderReader = (prefix: Uint8Array) => HeaderScan;

// A header must fit in this many bytes; an AVIF `meta` box is the only large one (item locations for grids).
const maxHeaderPrefixBytes = 64 * 1024;
const sniffBytes = magicNumberBytes;

/** Header readers of the formats that only get header-first priority (JPEG has its own streaming scanner). */
const headerReaders: Readonly<Record<Exclude<ImageFormat, 'jpeg'>, HeaderReader>> = {
  png: readPngHeader,
  gif: readGifHeader,
  webp: readWebpHeader,
  avif: (prefix) => readAvifHeader(prefix),
};

// The prefix is re-read from its start as it grows: an origin trickling one byte per chunk would make that quadratic
// (64 KiB × 64 Ki reads of an AVIF box walk), so past `rereadEveryChunkBytes` it is re-read only once it grew by
// `rereadAfterBytes` (or at the end). Below, every chunk re-reads it: PNG, GIF and WebP headers end within a few
// hundred bytes, and one that is complete must not wait for 512 more bytes (or the read-ahead's deadline).
const rereadAfterBytes = 512;
const rereadEveryChunkBytes = 2048;

/** Keeps the first bytes and re-reads them as they grow, for formats whose header is a few dozen bytes. */
class PrefixScanner implements ImageScanner {
  #prefix = new Uint8Array(0);
  #readBytes = 0;
  #result: ScanResult = more;

  constructor(private readonly read: HeaderReader) {}

  push(chunk: Uint8Array): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    const room = maxHeaderPrefixBytes - this.#prefix.length;
    const grown = new Uint8Array(this.#prefix.length + Math.min(room, chunk.length));
    grown.set(this.#prefix);
    grown.set(chunk.subarray(0, room), this.#prefix.length);
    this.#prefix = grown;
    const full = grown.length >= maxHeaderPrefixBytes;
    const reread = grown.length <= rereadEveryChunkBytes || grown.length - this.#readBytes >= rereadAfterBytes || full;
    if (reread) this.#reread();
    if (this.#result.kind === 'more' && full) {
      this.#result = invalid(`no dimensions in the first ${maxHeaderPrefixBytes} bytes`);
    }
    return this.#result;
  }

  finish(): ScanResult {
    if (this.#result.kind === 'more' && this.#readBytes < this.#prefix.length) this.#reread();
    return this.#result.kind === 'more' ? invalid('image ended inside its header') : this.#result;
  }

  #reread(): void {
    this.#readBytes = this.#prefix.length;
    this.#result = headerOnly(this.read(this.#prefix));
  }
}

/**
 * Streaming scanner for any supported image: waits for enough bytes to sniff the format, then hands every byte to
 * the format's own scanner.
 */
export class AnyImageScanner implements ImageScanner {
  #head = new Uint8Array(0);
  #inner: ImageScanner | undefined;
  #result: ScanResult = more;

  /** `stopAtPreview`: a progressive JPEG is read only to its preview's end (see `ImageLayout.previewOnly`). */
  constructor(
    private readonly good: GoodImageRule = defaultGoodImageRule,
    private readonly stopAtPreview = false,
  ) {}

  push(chunk: Uint8Array): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    if (this.#inner) {
      this.#result = this.#inner.push(chunk);
      return this.#result;
    }
    const head = new Uint8Array(this.#head.length + chunk.length);
    head.set(this.#head);
    head.set(chunk, this.#head.length);
    if (head.length < sniffBytes) {
      this.#head = head;
      return more;
    }
    this.#head = new Uint8Array(0);
    const kind = magicNumberFormat(head);
    if (kind === null) {
      this.#result = invalid('not a JPEG, PNG, GIF, WebP or AVIF file');
      return this.#result;
    }
    this.#inner =
      kind === 'jpeg' ? new JpegScanner(this.good, this.stopAtPreview) : new PrefixScanner(headerReaders[kind]);
    this.#result = this.#inner.push(head);
    return this.#result;
  }

  finish(): ScanResult {
    if (this.#result.kind !== 'more') return this.#result;
    if (!this.#inner) return invalid('image shorter than its magic number');
    return this.#inner.finish();
  }
}

/**
 * One-shot helper for tests, benchmarks and the fuzzer: scans a whole buffer, optionally in chunks of `chunkBytes`,
 * optionally only to a progressive JPEG's preview (`stopAtPreview`, as for a small urgent image).
 */
export function scanImage(
  bytes: Uint8Array,
  good?: GoodImageRule,
  chunkBytes = bytes.length || 1,
  stopAtPreview = false,
): ScanResult {
  const scanner = new AnyImageScanner(good, stopAtPreview);
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const result = scanner.push(bytes.subarray(at, at + chunkBytes));
    if (result.kind !== 'more') return result;
  }
  return scanner.finish();
}
