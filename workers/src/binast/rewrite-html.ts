import { isLoaderSrc } from '@speedkit/binast-loader/model';
import type { Middleware } from '../shared/middleware';
import { forbidsTransform } from '../shared/no-transform';
import { readLimited } from '../shared/read-limited';
import { documentBase } from './base-url';
import { policyReason, readPolicies } from './page-csp';

/**
 * Marks up a site's pages for the BinaryAST loader (packages/binast-loader) so a site owner need not edit them:
 * HTML responses get the loader's `<script src>` first in `<head>`, and each same-origin classic or module
 * `<script src>` becomes `type="binast"` / `type="binast-module"`, which the loader fetches as BinaryAST with a
 * plain-JS fallback. Off unless `BINAST_REWRITE_LOADER` names the loader's URL (hosted by the site, decoder beside
 * it). Scripts it cannot vouch for are left alone: cross-origin, `integrity`, `nomodule`, other types, and every
 * script of a page without a `<head>` (the loader could not be placed before them).
 *
 * The loader runs the scripts it is given after the parser's own: an inline script, an event-handler attribute or
 * a script left plain would run before the scripts it may need (`<script src=lib.js>` then an inline `lib.go()`), and
 * the page would break. So a page with any of those is left exactly as it is (`x-speedkit-binast-rewrite: left: …`),
 * as is one with no script to hand over: only pages whose every script the loader runs are rewritten. So is a page
 * that embeds the loader itself (a second loader would run every script a second time), and one whose
 * Content-Security-Policy would refuse the loader's tag (page-csp.ts); under a nonce policy the tag gets the nonce of
 * the page's scripts. Script URLs resolve against the page's `<base href>`, as the browser resolves them (base-url.ts).
 */

const classicTypes = new Set(['', 'text/javascript', 'application/javascript', 'application/ecmascript']);

/** The loader URL from `BINAST_REWRITE_LOADER`, or null when rewriting is off. */
export function rewriteLoaderUrl(env: Readonly<Record<string, unknown>>): string | null {
  const raw = env.BINAST_REWRITE_LOADER;
  if (typeof raw !== 'string' || raw.trim() === '') return null;
  return raw.trim();
}

/**
 * The `type` a script element should get, or null to leave it as it is. Its `src` resolves against `baseUrl`, the
 * page's `<base href>` where it has one (base-url.ts); the loader's URL against the page, where the rewrite puts it
 * (first in `<head>`, before any `<base>`).
 */
export function loaderTypeFor(
  attributes: { type: string | null; src: string | null; integrity: boolean; nomodule: boolean },
  pageUrl: URL,
  loaderUrl: string,
  baseUrl: URL = pageUrl,
): 'binast' | 'binast-module' | null {
  if (attributes.src === null || attributes.integrity || attributes.nomodule) return null;
  const src = URL.parse(attributes.src.trim(), baseUrl.href);
  if (src === null || src.origin !== pageUrl.origin || src.href === URL.parse(loaderUrl, pageUrl.href)?.href)
    return null;
  const type = (attributes.type ?? '').trim().toLowerCase();
  if (type === 'module') return 'binast-module';
  return classicTypes.has(type) ? 'binast' : null;
}

/** What `loaderTypeFor` reads of a `<script>` element. */
const scriptAttributes = (script: Element) => ({
  type: script.getAttribute('type'),
  src: script.getAttribute('src'),
  integrity: script.hasAttribute('integrity'),
  nomodule: script.hasAttribute('nomodule'),
});

const escapeAttribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * Whether the rewriter is inside a `<template>`. Its scripts do not run with the page: they run when the page stamps
 * the template into the document, as the plain scripts they are. Marked for the loader they would never run (it only
 * looks again on `binast.scan()`), so they are neither marked nor counted.
 */
function templateDepth() {
  let depth = 0;
  return {
    get inside() {
      return depth > 0;
    },
    element(element: Element) {
      depth++;
      element.onEndTag(() => {
        depth--;
      });
    },
  };
}

/** Pages are read whole before they are rewritten (ours are a few KB); larger ones are left as they are. */
const maxRewrittenHtmlBytes = 2 * 1024 * 1024;

/** Script types that run code, and the ones the loader already runs. */
const isExecutable = (type: string | null) => {
  const normal = (type ?? '').trim().toLowerCase();
  return classicTypes.has(normal) || normal === 'module';
};
const isLoaderType = (type: string | null) => /^binast(-module)?$/i.test((type ?? '').trim());

/** Why the page must keep its scripts as they are (a sentence), or null; and the nonce to give the loader's tag. */
interface Reading {
  reason: string | null;
  nonce: string | null;
}

/**
 * Why the page must keep its scripts as they are, or null when the loader may take every one of them: reads the
 * page once (HTMLRewriter on the bytes, so any charset) and counts what would run outside the loader.
 */
async function readPage(bytes: ArrayBuffer, headers: Headers, pageUrl: URL, loaderUrl: string): Promise<Reading> {
  let inlineCode = false;
  let plainScripts = 0;
  let handedOver = 0;
  let inExecutableInline = false;
  let ownLoader = false;
  // The nonce of the page's scripts (one per response, on each of them), and every enforced policy.
  let nonce: string | null = null;
  const policies = headers.get('content-security-policy') ? [headers.get('content-security-policy') as string] : [];
  const base = documentBase(pageUrl);
  const template = templateDepth();
  await new HTMLRewriter()
    .on('template', template)
    .on('base', {
      element(element) {
        base.see(element.getAttribute('href'));
      },
    })
    .on('meta', {
      element(meta) {
        const content = meta.getAttribute('content');
        if (/^\s*content-security-policy\s*$/i.test(meta.getAttribute('http-equiv') ?? '') && content !== null)
          policies.push(content);
      },
    })
    .on('script', {
      element(script) {
        const type = script.getAttribute('type');
        const src = script.getAttribute('src');
        nonce ??= script.getAttribute('nonce');
        inExecutableInline = src === null && isExecutable(type);
        if (src === null || isLoaderType(type)) {
          if (isLoaderType(type)) handedOver++;
          return;
        }
        if (template.inside) return;
        // The loader already here (by its file name, or at the URL the rewrite would add): a second one would run
        // every opt-in script again.
        if (isLoaderSrc(src) || base.resolve(src)?.href === URL.parse(loaderUrl, pageUrl.href)?.href) {
          ownLoader = true;
          return;
        }
        if (loaderTypeFor(scriptAttributes(script), pageUrl, loaderUrl, base.url)) handedOver++;
        else if (isExecutable(type)) plainScripts++;
      },
      text(chunk) {
        if (inExecutableInline && chunk.text.trim() !== '') inlineCode = true;
      },
    })
    .on('*', {
      element(element) {
        for (const [name] of element.attributes as Iterable<[string, string]>) {
          if (/^on[a-z]+$/i.test(name)) inlineCode = true;
        }
      },
    })
    .transform(new Response(bytes, { headers }))
    .arrayBuffer();
  const reason = ownLoader
    ? 'the page embeds the loader itself'
    : inlineCode
      ? 'inline scripts or event handlers would run before the scripts they may need'
      : plainScripts > 0
        ? `${plainScripts} script(s) it must leave plain would run before those they may need`
        : handedOver === 0
          ? 'no script to hand to the loader'
          : policyReason(readPolicies(policies), nonce);
  return { reason, nonce };
}

/**
 * Rewrites one HTML response; anything else (an error status, a page the origin marked `no-transform`) passes
 * through untouched.
 */
async function rewriteForLoader(response: Response, pageUrl: URL, loaderUrl: string): Promise<Response> {
  const type = response.headers.get('content-type') ?? '';
  if (response.status !== 200 || !/^text\/html\b/i.test(type) || forbidsTransform(response)) return response;
  const read = await readLimited(response.clone(), maxRewrittenHtmlBytes);
  if (read === null) return response;
  await response.body?.cancel();
  const bytes = read.buffer.slice(read.byteOffset, read.byteOffset + read.byteLength) as ArrayBuffer;
  try {
    const { reason, nonce } = await readPage(bytes, response.headers, pageUrl, loaderUrl);
    if (reason === null) return markUp(new Response(bytes, response), pageUrl, loaderUrl, nonce);
    const left = new Response(bytes, response);
    left.headers.set('x-speedkit-binast-rewrite', `left: ${reason}`);
    return left;
  } catch (error) {
    // The body was read here: the page goes on from those bytes, unchanged.
    console.warn(`binast rewrite: left the page as it was: ${String(error)}`);
    return new Response(bytes, response);
  }
}

/**
 * The page with the loader first in `<head>` (with the nonce of the page's scripts, which a nonce policy requires)
 * and each script it may take marked for it.
 */
function markUp(response: Response, pageUrl: URL, loaderUrl: string, nonce: string | null): Response {
  let loaderPlaced = false;
  const base = documentBase(pageUrl);
  const nonceAttribute = nonce === null ? '' : ` nonce="${escapeAttribute(nonce)}"`;
  const template = templateDepth();
  const rewritten = new HTMLRewriter()
    .on('template', template)
    .on('head', {
      element(head) {
        if (loaderPlaced) return;
        head.prepend(`<script src="${escapeAttribute(loaderUrl)}"${nonceAttribute}></script>`, { html: true });
        loaderPlaced = true;
      },
    })
    .on('base', {
      element(element) {
        base.see(element.getAttribute('href'));
      },
    })
    .on('script[src]', {
      element(script) {
        if (!loaderPlaced || template.inside) return;
        const next = loaderTypeFor(scriptAttributes(script), pageUrl, loaderUrl, base.url);
        if (next) script.setAttribute('type', next);
      },
    })
    .transform(response);
  const out = new Response(rewritten.body, rewritten);
  // The body changed length; a stale Content-Length or a strong ETag of the original would be wrong.
  out.headers.delete('content-length');
  const etag = out.headers.get('etag');
  if (etag && !etag.startsWith('W/')) out.headers.set('etag', `W/${etag}`);
  out.headers.set('x-speedkit-binast-rewrite', 'loader');
  return out;
}

/** Middleware form for the standalone Worker: off (a pure pass-through) unless `BINAST_REWRITE_LOADER` is set. */
export const binastRewriteMiddleware: Middleware = async (request, env, _ctx, next) => {
  const loaderUrl = rewriteLoaderUrl(env as unknown as Record<string, unknown>);
  const response = await next(request);
  if (loaderUrl === null || request.method !== 'GET') return response;
  try {
    return await rewriteForLoader(response, new URL(request.url), loaderUrl);
  } catch (error) {
    console.warn(`binast rewrite: left the page as it was: ${String(error)}`);
    return response;
  }
};
