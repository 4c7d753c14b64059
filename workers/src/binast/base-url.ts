/**
 * The base URL a page's parser resolves each `<script src>` against, as the HTML spec has it: the page's own URL
 * until the first `<base>` with an `href`, that one's URL (resolved against the page) from there on; later `<base>`
 * elements change nothing. The Worker must resolve a script's `src` the same way, or it hints, preloads and rewrites
 * a different script than the one the browser runs (`<base href="/static/">` and `src="app.js"` is `/static/app.js`,
 * not the page's folder). Fed every `<base>` element in document order (HTMLRewriter calls handlers in that order).
 */
export function documentBase(pageUrl: URL) {
  let frozen: URL | undefined;
  return {
    /** A `<base>` element's `href` (null without one, which the spec skips). */
    see(href: string | null): void {
      // An `href` that does not parse still freezes the base, at the page's URL.
      if (frozen === undefined && href !== null) frozen = URL.parse(href.trim(), pageUrl.href) ?? pageUrl;
    },
    /** The URL relative ones resolve against at this point of the page. */
    get url(): URL {
      return frozen ?? pageUrl;
    },
    /** `src` resolved as the browser would resolve it at this point of the page, or null when it does not parse. */
    resolve(src: string): URL | null {
      return URL.parse(src.trim(), (frozen ?? pageUrl).href);
    },
  };
}
