/** Image formats the Workers recognise from their bytes (images can decode all but GIF; priority reads all five). */
export type ImageFormat = 'avif' | 'webp' | 'jpeg' | 'png' | 'gif';

/** Bytes needed to tell every supported format apart by its magic number. */
export const magicNumberBytes = 12;

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

/**
 * The format from the first `magicNumberBytes` alone, not from Content-Type (which origins often get wrong). Any
 * ISO-BMFF file (`ftyp`) counts as AVIF here: its brands are judged by the AVIF reader or by `sniffImageFormat`.
 */
export function magicNumberFormat(head: Uint8Array): ImageFormat | null {
  const text = ascii(head, 0, Math.min(head.length, magicNumberBytes));
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (text.startsWith('\x89PNG\r\n\x1a\n')) return 'png';
  if (text.startsWith('GIF87a') || text.startsWith('GIF89a')) return 'gif';
  if (text.startsWith('RIFF') && text.slice(8, 12) === 'WEBP') return 'webp';
  if (text.slice(4, 8) === 'ftyp') return 'avif';
  return null;
}

/**
 * The format from the magic number, with an ISO-BMFF file counted as AVIF only when an `avif`/`avis` brand shows in
 * its first 64 bytes: for bodies too large to read whole, to tell a large image (passed through) from anything else
 * (refused). Never throws.
 */
export function sniffImageFormat(head: Uint8Array): ImageFormat | null {
  const format = magicNumberFormat(head);
  if (format !== 'avif') return format;
  return /avif|avis/.test(ascii(head, 8, Math.min(head.length, 64) - 8)) ? 'avif' : null;
}
