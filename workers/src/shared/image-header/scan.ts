import type { ImageFormat } from './format';

/** What a header reader learns: the format, the dimensions and where the header ends in the byte stream. */
export interface ImageDimensions {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** Bytes a decoder needs before it can lay the image out (the header ends before the byte at this offset). */
  readonly headerEndBytes: number;
}

/**
 * Result of reading a header from the bytes seen so far: read more, the answer, or why the input is not usable.
 * Readers are pure and re-runnable on a growing prefix, so a streaming caller and a whole-buffer caller share them.
 */
export type HeaderScan =
  | { readonly kind: 'more' }
  | { readonly kind: 'done'; readonly header: ImageDimensions }
  | { readonly kind: 'invalid'; readonly reason: string };

export const needMore: HeaderScan = { kind: 'more' };

export const unusable = (reason: string): HeaderScan => ({ kind: 'invalid', reason });

/** A finished header, or `invalid` when a dimension is zero. */
export function dimensions(format: ImageFormat, width: number, height: number, headerEndBytes: number): HeaderScan {
  if (!(width >= 1) || !(height >= 1)) return unusable(`${format} header has no dimensions`);
  return { kind: 'done', header: { format, width, height, headerEndBytes } };
}
