import {
  binastFetchPath,
  isLoaderSrc,
  loaderTagPlacement,
  nativeScriptRule,
  preloadsBinast,
  ranPlainBefore,
  readPlainCookie,
  readVisitor,
  shouldPreload,
  visitorHint,
} from '@speedkit/binast-loader/model';
import { planScript } from '@speedkit/binast-loader/plan';
import { ExpiringClaims } from '../shared/expiring-claims';
import type { Middleware } from '../shared/middleware';
import { forbidsTransform } from '../shared/no-transform';
import { addVary } from '../shared/vary';
import { documentBase } from './base-url';
import { type BinastConfig, readConfig } from './config';
import { binastMediaType } from './media-type';
import { rewriteLoaderUrl } from './rewrite-html';
import { variantPrefix } from './store';

/**
 * The size hint the loader's cost model reads (packages/binast-loader/src/model.ts): how many bytes a script takes
 * on the wire as JavaScript and as BinaryAST, both gzipped the same way, so the model sees the real ratio of
 * whatever format the Worker ships. Written next to each encoding (`storeEncoding`) and put on the page as
 * `data-binast-size="<js bytes> <binast bytes>"` on each `<script type="binast">` / `"binast-module"`, followed by the
 * link speed (Mbit/s) the visitor's earlier view measured when its cookie says so (`readVisitor`), `1` when its
 * decoder is cached (`visitorHint`). A script an earlier view ran plain (`ranPlainBefore`) is given to the page plain:
 * its copy in the HTTP cache beats any download. One the loader is going to ask BinaryAST for, where no plain copy
 * can be cached (`preloadsBinast`), gets `<link rel=preload as=fetch>` of its BinaryAST URL (`binastFetchPath`) and
 * `data-binast-fetch` with that URL, which the loader fetches instead of asking by `Accept`.
 */

/**
 * Where the hint for a script lives in R2, per layout, format number and lazy level like the encodings, and per host
 * and path: two sites behind one deployment can each have an `/app.js` of their own.
 */
export const hintKey = (url: URL, config: BinastConfig) =>
  `binast-hint/${variantPrefix(config)}/${url.host}${url.pathname}`;

/** Bytes after gzip (CompressionStream, the runtime's default level): what a compressing CDN sends, for both formats. */
export async function gzipBytes(bytes: Uint8Array): Promise<number> {
  const compressed = new Blob([bytes]).stream().pipeThrough(new CompressionStream('gzip'));
  return (await new Response(compressed).arrayBuffer()).byteLength;
}

export const formatHint = (jsBytes: number, binastBytes: number) => `${jsBytes} ${binastBytes}`;

/** `[jsBytes, binastBytes]`, or null for anything but two positive integers. */
export function parseHint(text: string): [number, number] | null {
  const match = /^(\d{1,10}) (\d{1,10})$/.exec(text.trim());
  if (!match) return null;
  const jsBytes = Number(match[1]);
  const binastBytes = Number(match[2]);
  return jsBytes > 0 && binastBytes > 0 ? [jsBytes, binastBytes] : null;
}

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * An empty element's HTML again from its name and attributes (the loader's tag, re-emitted where it moves). The
 * rewriter hands attribute values over as they stand in the page, entities undecoded, so only a quote (possible in a
 * single-quoted value) needs escaping.
 */
const emptyElementHtml = (element: Element) => {
  const attributes = [...element.attributes].map(([name, value = '']) => ` ${name}="${value.replace(/"/g, '&quot;')}"`);
  return `<${element.tagName}${attributes.join('')}></${element.tagName}>`;
};

/** Puts `html` in front of `script` unless it is empty. */
const insertBefore = (script: Element, html: string) => {
  if (html) script.before(html, { html: true });
};

/** At most this many scripts of one page view are asked for as BinaryAST in the background (each is an origin fetch). */
const maxEncodesAskedPerPage = 4;
/**
 * Scripts this isolate asked for lately: one is not asked for again for 10 min (its encode takes seconds at most), and
 * at most 1,000 are remembered (the oldest forgotten first).
 */
export const encodeAsks = new ExpiringClaims(10 * 60_000, 1000);

/**
 * Annotates the scripts a page opted in to the loader (by hand or through rewrite-html.ts) with their size hint.
 * Where the loader is going to run the plain script (`shouldPreload`: the loader's own cost model, fed what the
 * visitor's earlier view left in its cookies, else at 1.6 Mbit/s with the decoder cached; always when BinaryAST is
 * not smaller), a classic blocking script goes back to the plain `<script src>` it stands for, its size hint kept
 * so the loader records it (`nativeScriptRule`: not after a blocking script the loader still runs); the others get a `<link rel=preload>` (modulepreload for modules; with the script's `crossorigin`, and the
 * nonce the loader will use) before the element, which the browser's preload scanner finds as early as it would the
 * plain `<script src>`. The loader's own parser-blocking tag moves down to the first script that may need it, or to
 * the end of the body (`loaderTagPlacement`): on a view whose scripts were all written back it then runs after them.
 * Scripts without a stored hint, cross-origin ones and pages without a store are left as they are; any error serves
 * the page untouched.
 */
export const binastHintMiddleware: Middleware = async (request, env, ctx, next) => {
  const response = await next(request);
  const store = env.VARIANTS;
  const type = response.headers.get('content-type') ?? '';
  if (!store || request.method !== 'GET' || response.status !== 200 || !/^text\/html\b/i.test(type)) return response;
  // The origin forbids changing its page (RFC 9111 §5.2.2.6): it goes out byte for byte.
  if (forbidsTransform(response)) return response;
  const pageUrl = new URL(request.url);
  const config = readConfig(env as unknown as Record<string, unknown>);
  const cookies = request.headers.get('cookie');
  const visitor = readVisitor(cookies);
  // What the cookies add to every size hint, and the scripts earlier views ran plain: the same for every script.
  const fromCookies = visitorHint(cookies);
  const plainKeys = readPlainCookie(cookies);
  // The nonce of the last other script with one (the loader's own tag): the loader gives it to the plain scripts it
  // inserts, so the preload that stands for them carries it too, or a nonce-only CSP would refuse the preload.
  let loaderNonce: string | null = null;
  let always = false;
  const native = nativeScriptRule();
  // Inside a <template> or <noscript> a script never runs, and a loader put there would not run either.
  let inert = 0;
  // Scripts resolve against the page's `<base href>` once there is one, as in the browser: else the hint, the
  // preload and the BinaryAST URL the loader fetches (`data-binast-fetch`) would be another script's.
  const base = documentBase(pageUrl);
  /** A same-origin script's URL, else null (cross-origin, unparsable). */
  const sameOrigin = (src: string) => {
    const url = base.resolve(src);
    return url?.origin === pageUrl.origin ? url : null;
  };
  /** A URL resolved as the browser resolves it at this point of the page, else null (unparsable). */
  const resolve = (src: string) => base.resolve(src)?.href ?? null;
  // The loader by its file name, or by the URL the rewrite (rewrite-html.ts) inserts, whatever its name.
  const rewriteLoader = rewriteLoaderUrl(env as unknown as Record<string, unknown>);
  const rewriteLoaderHref = rewriteLoader === null ? null : resolve(rewriteLoader);
  const placement = loaderTagPlacement(
    (src) => isLoaderSrc(src) || (rewriteLoaderHref !== null && resolve(src) === rewriteLoaderHref),
  );
  /** The stored size hint of a script, else null (not encoded yet). */
  const storedHint = async (url: URL) => {
    const stored = await store.get(hintKey(url, config));
    return stored && parseHint(await stored.text());
  };
  let encodesAsked = 0;
  /**
   * An opt-in script without a hint is asked for as BinaryAST in the background, as a client wanting it would ask:
   * the middleware below then encodes and stores it, and the next view gets its hint. Nothing else would ever ask:
   * the loader asks for BinaryAST only with a hint, so without this a deployed site's scripts stayed plain for good.
   */
  const askForEncoding = (url: URL) => {
    if (encodesAsked >= maxEncodesAskedPerPage || !encodeAsks.claim(url.href)) return;
    encodesAsked += 1;
    const asked = new Request(url, { headers: { accept: binastMediaType } });
    ctx.waitUntil(
      next(asked)
        .then((answer) => answer.body?.cancel())
        .catch((error: unknown) => console.error(`binast: asking for ${url.pathname} in the background: ${error}`)),
    );
  };
  try {
    const rewritten = new HTMLRewriter()
      .on('script', {
        async element(script) {
          const kind = (script.getAttribute('type') ?? '').trim().toLowerCase();
          if (kind !== 'binast' && kind !== 'binast-module') {
            loaderNonce = script.getAttribute('nonce') ?? loaderNonce;
            // The loader's `data-always`: it asks for BinaryAST whatever the model says, so nothing runs plain.
            always ||= script.hasAttribute('data-always');
            if (inert > 0) return;
            const tag = {
              src: script.getAttribute('src') ?? '',
              type: kind,
              async: script.hasAttribute('async'),
              defer: script.hasAttribute('defer'),
            };
            if (placement.hold(tag, () => emptyElementHtml(script))) script.remove();
            else insertBefore(script, placement.before({ type: kind, writtenBack: false }));
            return;
          }
          const src = script.getAttribute('src') ?? '';
          const plan = planScript(
            { type: kind, src, defer: script.hasAttribute('defer'), hasAttribute: (name) => script.hasAttribute(name) },
            false,
          );
          const url = plan && sameOrigin(src);
          const hint = url && (await storedHint(url));
          if (!plan || !hint) {
            if (url && !hint && inert === 0) askForEncoding(url);
            // Left to the loader as it is: later blocking scripts must not overtake it.
            if (plan) native({ runsPlain: false, mode: plan.mode });
            if (inert === 0) insertBefore(script, placement.before({ type: kind, writtenBack: false }));
            return;
          }
          // The link speed an earlier view measured and whether its decoder is cached go to the loader with the
          // sizes, so both decide from the same figures.
          script.setAttribute('data-binast-size', formatHint(...hint) + fromCookies);
          // Whether an earlier view in this browser ran this version of the script plain (the plain-script cookie):
          // then its copy in the HTTP cache wins and the page gets the plain script. Unknown for a script with
          // `integrity`, which cannot use BinaryAST at all.
          const path = url.pathname + url.search;
          const ranPlain = script.hasAttribute('integrity') ? undefined : ranPlainBefore(plainKeys, path, hint[0]);
          const runsPlain = !always && shouldPreload(...hint, visitor, ranPlain);
          if (preloadsBinast(visitor, runsPlain, ranPlain)) {
            // The loader is going to ask for BinaryAST and no plain copy can be cached: the preload scanner starts it
            // now, and the loader's fetch of the same URL takes it over (crossorigin: the credentials mode of fetch's
            // default, same-origin).
            const early = escapeAttribute(binastFetchPath(path));
            script.setAttribute('data-binast-fetch', binastFetchPath(path));
            script.before(`<link rel="preload" as="fetch" crossorigin href="${early}">`, { html: true });
          }
          if (native({ runsPlain, mode: plan.mode })) {
            // The plain script itself, as the page would have it without the loader; the nonce the loader would
            // have given it.
            // Its size hint stays: the loader records a plain script with one as written back (`native`).
            script.removeAttribute('type');
            const nonce = loaderNonce ?? script.getAttribute('nonce');
            if (nonce !== null) script.setAttribute('nonce', nonce);
            return;
          }
          // The loader runs this one: it must have started by now.
          if (inert === 0) insertBefore(script, placement.before({ type: kind, writtenBack: false }));
          if (!runsPlain) return;
          // The loader reads this and runs the plain script, which the preload below already started.
          script.setAttribute('data-binast-preloaded', '');
          // The fetch mode must match the script's for the browser to use the preload; a nonce-only CSP needs its nonce.
          const copied = [
            ['crossorigin', script.getAttribute('crossorigin')],
            ['nonce', loaderNonce ?? script.getAttribute('nonce')],
          ]
            .filter((pair): pair is [string, string] => pair[1] !== null)
            .map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`)
            .join('');
          const rel = kind === 'binast-module' ? 'modulepreload' : 'preload';
          script.before(`<link rel="${rel}" as="script" href="${escapeAttribute(src)}"${copied}>`, { html: true });
        },
      })
      .on('base', {
        element(element) {
          if (inert > 0) return;
          base.see(element.getAttribute('href'));
          // A loader tag held from before the `<base>` goes back in front of it: moved past it, its `src` would
          // resolve against the `<base>` (another folder or site) and the loader, with every script left to it,
          // would not run.
          insertBefore(element, placement.end());
        },
      })
      .on('template, noscript', {
        element(element) {
          inert++;
          element.onEndTag(() => {
            inert--;
          });
        },
      })
      .on('body', {
        element(body) {
          body.onEndTag((end) => {
            const held = placement.end();
            if (held) end.before(held, { html: true });
          });
        },
      })
      .onDocument({
        // A page without `</body>`: the end of the document.
        end(end) {
          const held = placement.end();
          if (held) end.append(held, { html: true });
        },
      })
      .transform(response);
    const out = new Response(rewritten.body, rewritten);
    // The body may change length; a stale Content-Length or a strong ETag of the original would be wrong.
    out.headers.delete('content-length');
    const etag = out.headers.get('etag');
    if (etag && !etag.startsWith('W/')) out.headers.set('etag', `W/${etag}`);
    // Markup decided from this visitor's cookies (their link speed, the scripts their views ran plain) is theirs: a
    // shared cache must not hand it to the next visitor. Without those cookies the page is the same for everyone.
    if (fromCookies !== '' || plainKeys.length > 0) addVary(out.headers, 'Cookie');
    return out;
  } catch (error) {
    console.warn(`binast hints: left the page as it was: ${String(error)}`);
    return response;
  }
};
