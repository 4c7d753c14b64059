import { explicitQuality, type MediaRange } from '../../shared/accept';
import { type ImageFormat, type ModernFormat, mimeTypes } from './formats';

/**
 * Picks the format to convert an image to, or `null` to serve the original.
 * - A modern format is a candidate only when it is enabled, compresses better than the source (never from AVIF) and the client lists it by name
 *   with q > 0 (see `explicitQuality` for why wildcards do not count).
 * - Among candidates the client's q-values decide; ties go to the order of `enabled` (AVIF before WebP by default:
 *   it is smaller at the same quality).
 * - A WebP source is only converted when the client weighs AVIF at least as high as WebP.
 * @param enabled formats the deployment may produce, best first
 */
export function chooseFormat(
  ranges: readonly MediaRange[],
  source: ImageFormat,
  enabled: readonly ModernFormat[],
): ModernFormat | null {
  let best: ModernFormat | null = null;
  let bestQuality = 0;
  for (const format of enabled) {
    // Only towards better compression: AVIF > WebP > JPEG/PNG/GIF.
    if (format === source || source === 'avif') continue;
    const quality = explicitQuality(ranges, mimeTypes[format]);
    if (quality > bestQuality) {
      best = format;
      bestQuality = quality;
    }
  }
  if (best !== null && (source === 'webp' || source === 'avif')) {
    const sourceQuality = explicitQuality(ranges, mimeTypes[source]);
    if (sourceQuality > bestQuality) return null;
  }
  return best;
}

/**
 * Formats to try in order for one response: the chosen one, then the other acceptable modern formats (used while the
 * best one is still being encoded in the background, or when it came out larger than the original).
 */
export function acceptableFormats(
  ranges: readonly MediaRange[],
  source: ImageFormat,
  enabled: readonly ModernFormat[],
): ModernFormat[] {
  const first = chooseFormat(ranges, source, enabled);
  if (first === null) return [];
  const rest = enabled.filter((format) => format !== first && format !== source);
  const second = chooseFormat(ranges, source, rest);
  return second === null ? [first] : [first, second];
}
