/**
 * Pure: the asset paths a request path may name, in the order to try them. With `html_handling = "none"`
 * (wrangler.toml) the assets answer `/x.html` directly instead of redirecting it to `/x` (that redirect cost the
 * images demo ~670 ms), but they no longer map `/x` to `x.html` or a folder to its `index.html`; these candidates
 * restore both mappings without a redirect.
 */
export function assetCandidates(pathname: string): string[] {
  if (pathname.endsWith('/')) return [`${pathname}index.html`];
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return lastSegment.includes('.') ? [pathname] : [pathname, `${pathname}.html`];
}

/** Serves a request from the assets binding, trying each candidate path until one exists. */
export async function fetchAsset(assets: Fetcher, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const candidates = assetCandidates(url.pathname);
  let response: Response | null = null;
  for (const path of candidates) {
    if (response) await response.body?.cancel();
    url.pathname = path;
    response = await assets.fetch(new Request(url, request));
    if (response.status !== 404) return response;
  }
  return response ?? assets.fetch(request);
}
