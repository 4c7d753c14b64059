// Which conditional requests the image Worker judges itself. A browser that cached a URL's original (before the
// Worker was deployed, or through a request whose Accept named no modern format) revalidates it with that original's
// `If-None-Match` even when its new request accepts AVIF or WebP (Chromium does). Passed to the origin, the condition
// matches, the origin answers 304 and the browser keeps the original for as long as it keeps revalidating: the
// variant never reaches a returning visitor. So such a request goes to the origin without its validators, and the
// condition is judged against what the Worker serves (the variant's own ETag, or the original's validators).
import { parseAccept } from '../../shared/accept';
import { acceptableFormats } from './choose-format';
import { type ImagesConfig, onImageRoute } from './config';
import { isImageDestination } from './source-type';

/** The parts of a request the decision reads. */
export interface RevalidationRequest {
  readonly method: string;
  readonly pathname: string;
  readonly headers: { get(name: string): string | null };
}

/**
 * Whether the Worker judges this request's conditions: a GET or HEAD on an image route that carries a validator,
 * from a client naming a modern format this deployment produces, for an image (or an unknown) destination.
 */
export function judgesConditions(request: RevalidationRequest, config: ImagesConfig): boolean {
  const { headers } = request;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (!headers.get('if-none-match') && !headers.get('if-modified-since')) return false;
  if (!onImageRoute(request.pathname, config)) return false;
  // Navigations, scripts, styles and fonts keep their validators: the origin answers them with a bodiless 304.
  if (!isImageDestination(headers.get('sec-fetch-dest'))) return false;
  // JPEG can become either modern format: a client that would get neither for it gets none for any source.
  return acceptableFormats(parseAccept(headers.get('accept')), 'jpeg', config.formats).length > 0;
}
