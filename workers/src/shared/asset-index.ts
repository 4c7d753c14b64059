/**
 * Pure: the path to ask the static assets for. They canonicalise HTML URLs with a 307 (`/page.html` → `/page`,
 * `/dir/index.html` → `/dir/`), and that extra round trip cost the images demo ~670 ms; asking for the canonical path
 * directly serves the same file with no hop. Every other path is unchanged.
 */
export function assetPath(pathname: string): string {
  if (pathname.endsWith('/index.html')) return pathname.slice(0, -'index.html'.length);
  if (pathname.endsWith('.html')) return pathname.slice(0, -'.html'.length);
  return pathname;
}

/** Serves a request from the assets binding under its canonical path (see `assetPath`). */
export function fetchAsset(assets: Fetcher, request: Request): Promise<Response> {
  const url = new URL(request.url);
  const path = assetPath(url.pathname);
  if (path === url.pathname) return assets.fetch(request);
  url.pathname = path;
  return assets.fetch(new Request(url, request));
}
