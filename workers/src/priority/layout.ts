import type { ImageFormat } from '../shared/image-header/format';
import type { HeaderScan } from '../shared/image-header/scan';

/**
 * What the priority headers are computed from: where in the byte stream each stage of the image becomes available.
 * Offsets count bytes from the start of the body; a stage ends *before* the byte at its offset.
 */
export interface ImageLayout {
  format: ImageFormat;
  width: number;
  height: number;
  /** Progressive JPEG: the file is sent as several scans that refine the whole picture. */
  progressive: boolean;
  /** Bytes a decoder needs before it knows the dimensions and tables (JPEG: up to the first scan's entropy data). */
  headerEndBytes: number;
  /** Progressive JPEG: end of the scan that completes the first DC pass of every component (a 1/8-scale preview). */
  previewEndBytes?: number;
  /** Progressive JPEG: end of the scan after which luma's low-frequency AC is precise enough for a good image. */
  goodEndBytes?: number;
  /**
   * The scan stopped at the preview's end, because the request that read it needed no more (an urgent image sends
   * its preview first and everything after at one priority); where the good point is was not looked for.
   */
  previewOnly?: true;
}

/** Result of feeding bytes to a scanner: keep feeding, the answer, or why the input is not usable. */
export type ScanResult = { kind: 'more' } | { kind: 'done'; layout: ImageLayout } | { kind: 'invalid'; reason: string };

/** An incremental parser: it sees each byte once, keeps bounded state, and never throws on bad input. */
export interface ImageScanner {
  /** Feeds the next chunk of the body. Once the result is `done` or `invalid`, further chunks are ignored. */
  push(chunk: Uint8Array): ScanResult;
  /**
   * The answer from what was seen: at the end of the body, or where the caller stops waiting. It changes nothing:
   * chunks pushed afterwards continue the scan (the handler keeps scanning what it forwards after a deadline).
   */
  finish(): ScanResult;
}

export const more: ScanResult = { kind: 'more' };

/** A header-only layout (no progressive stages) from a shared header reader's answer. */
export function headerOnly(scan: HeaderScan): ScanResult {
  if (scan.kind !== 'done') return scan;
  return { kind: 'done', layout: { ...scan.header, progressive: false } };
}

export function invalid(reason: string): ScanResult {
  return { kind: 'invalid', reason };
}
