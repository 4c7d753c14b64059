/**
 * Caps of the speed-test endpoints. The download cap is above @cloudflare/speedtest's largest default step (250 MB)
 * so that library runs unchanged against us; Cloudflare's own Worker template caps at 1e8 and breaks that step.
 * The upload cap is above the library's largest upload step (50 MB) and our engine's largest request (25 MB).
 */
export const maxDownloadBytes = 1_000_000_000;
export const maxUploadBytes = 250_000_000;

/**
 * Headers every speed-test response carries: no caching, no compression on the way (`no-transform`: the download's
 * zeros compressed by a proxy or CDN would cross the link as a few bytes), CORS, and timing readable from other
 * origins. `Content-Encoding` is exposed so a page of another origin sees at once when something compressed them
 * anyway (the engine then fails the download, saying so).
 */
export function measurementHeaders(serverDurationMs: number): Headers {
  return new Headers({
    'cache-control': 'no-store, no-transform',
    'access-control-allow-origin': '*',
    'access-control-expose-headers': 'Server-Timing, X-Received-Bytes, Content-Encoding',
    'timing-allow-origin': '*',
    'server-timing': serverTiming(serverDurationMs),
  });
}

/** `Server-Timing` in the form @cloudflare/speedtest parses (`cfRequestDuration;dur=<ms>`). */
function serverTiming(durationMs: number): string {
  const rounded = Math.max(0, Math.round(durationMs * 1000) / 1000);
  return `cfRequestDuration;dur=${rounded}`;
}

/** The answer to a CORS preflight: any origin may measure, with the headers our clients send. */
export function preflight(allowMethods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': `${allowMethods}, OPTIONS`,
      'access-control-allow-headers': 'content-type, authorization',
      'access-control-max-age': '86400',
    },
  });
}
