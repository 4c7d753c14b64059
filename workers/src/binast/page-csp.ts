/**
 * What a page's Content-Security-Policy means for a loader tag the Worker adds (rewrite-html.ts). A policy that
 * restricts scripts refuses a `<script src>` without the page's nonce (under `'strict-dynamic'` even one from the
 * site itself), and the scripts handed to the loader would then never run: so the loader's tag gets the nonce the
 * page's own scripts carry, and where there is none, or Trusted Types forbid the script URLs the loader sets, the
 * page is left as it is. Report-only policies block nothing and are not read.
 */

/** Directives that decide whether an external script may load (`default-src` when neither script one is given). */
const scriptDirectives = /(^|[;,])\s*(script-src-elem|script-src|default-src)(\s|;|$)/i;

/** What the page's policies (header values, joined by commas, and `<meta http-equiv>` contents) say together. */
export interface PagePolicy {
  /** Whether some policy limits which scripts load. */
  restrictsScripts: boolean;
  /** Whether some policy requires Trusted Types for scripts: the loader cannot set a plain string as a script URL. */
  trustedTypes: boolean;
}

export function readPolicies(policies: readonly string[]): PagePolicy {
  return {
    restrictsScripts: policies.some((policy) => scriptDirectives.test(policy)),
    trustedTypes: policies.some((policy) => /(^|[;,])\s*require-trusted-types-for\b/i.test(policy)),
  };
}

/**
 * Why the loader's tag cannot be admitted by the page's policies, or null when it can: with `nonce` (a nonce the
 * page's scripts carry, null when none does) where they restrict scripts.
 */
export function policyReason(policy: PagePolicy, nonce: string | null): string | null {
  if (policy.trustedTypes) return 'Trusted Types would refuse the script URLs the loader sets';
  if (policy.restrictsScripts && nonce === null)
    return 'a Content-Security-Policy without a nonce would refuse the loader';
  return null;
}
