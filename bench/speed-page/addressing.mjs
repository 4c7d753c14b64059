// How the browser reaches each variant. Every variant has two entrances in the server namespace, one per scheme:
// the direct variant's are the relay (cleartext) and its TLS port, a Worker variant's its HTTP/2 front (TLS) and the
// front's cleartext HTTP/1.1 port. The site's own host name is resolved to those entrances (hostRules), so a page's
// absolute URLs to its host (`https://your-host/img/a.jpg`, common on real sites) pass through the same Workers as the
// page, as they would on a deployed site (pageUrlOf says how the page itself is opened).
import { chromiumArgs } from '../lib/chromium.mjs';

/** Ports inside the server namespace (private to it; the demo origin on the host takes any free port). */
export const ports = {
  outsideProxy: 8812,
  relayTls: 8813,
  relay: 8814,
  firstWorker: 8815,
  firstFront: 8822,
  firstPlainFront: 8832,
  firstInspector: 9300,
};

/** @typedef {{ tls: number, plain: number }} Entrance a variant's ports in the server namespace, per scheme */

/**
 * Each variant's entrances: the relay's for the direct variant, the n-th front's for the n-th Worker variant.
 * @param {import('./variants.mjs').Variant[]} variants @returns {Map<string, Entrance>}
 */
export function entrancesOf(variants) {
  const out = new Map();
  let front = 0;
  for (const variant of variants) {
    if (variant.hops.length === 0) out.set(variant.id, { tls: ports.relayTls, plain: ports.relay });
    else {
      out.set(variant.id, { tls: ports.firstFront + front, plain: ports.firstPlainFront + front });
      front++;
    }
  }
  return out;
}

/** A URL's port, the scheme's default when it names none. @param {URL} url */
const portOf = (url) => Number(url.port || (url.protocol === 'https:' ? 443 : 80));

/**
 * Chromium's --host-resolver-rules for one variant: the site's own host (the address the page's absolute URLs name)
 * goes to that variant's entrance of the URL's scheme, so those URLs pass through the same Workers as the page. On a
 * default port the other scheme's default is mapped too: an http:// image on an https:// page is upgraded to
 * https://host (port 443), and an https:// site may still link http://host/… . Another port is only ever used with
 * the site's own scheme.
 * @param {URL} site @param {string} serverIp @param {Entrance} entrance
 */
export function hostRules(site, serverIp, entrance) {
  const port = portOf(site);
  const secure = (/** @type {number} */ p) => (p === 443 ? true : p === 80 ? false : site.protocol === 'https:');
  const mapped = port === 80 || port === 443 ? [80, 443] : [port];
  // Chromium matches a rule against "host:port" when the host alone does not match.
  return mapped
    .map((p) => `MAP ${site.hostname}:${p} ${serverIp}:${secure(p) ? entrance.tls : entrance.plain}`)
    .join(', ');
}

/**
 * The proxy bypass list: the lab's server and the site's own host on the ports the host rules map, nothing else. The
 * site's host on another port (an API or asset server beside a local site, an iframe from a second port) is not the
 * site under test and, from the client namespace, reachable only through the proxy, like a third party; `<-loopback>`
 * lifts Chromium's rule that never proxies 127.0.0.1 and localhost, where a local site's second port lives. Until
 * 2026-11-28 the list named the whole host and those requests failed in every variant.
 * @param {URL} site @param {string} serverIp
 */
export function proxyBypass(site, serverIp) {
  const port = portOf(site);
  const mapped = port === 80 || port === 443 ? [80, 443] : [port];
  // Chromium lets later rules override earlier ones: `<-loopback>` first, or it would proxy the lab's own server
  // when that is on loopback.
  return ['<-loopback>', serverIp, ...mapped.map((p) => `${site.hostname}:${p}`), ...browserServiceHosts].join(';');
}

/**
 * Hosts Chromium calls for itself, whatever its flags (the component updater's check and its clock, within a second
 * of launch), which no page uses: bypassing the proxy, they fail at once in the client namespace instead of crossing
 * the shaped link, where on a machine with Internet access their answers and the downloads they start would share
 * the link with the page being measured.
 */
const browserServiceHosts = ['update.googleapis.com', 'clients2.google.com'];

/**
 * Whether Chromium counts a host as trustworthy over plain http (a page there is a secure context): loopback
 * addresses and localhost names.
 * @param {string} hostname as URL gives it (IPv6 in brackets)
 */
export function isLoopbackHost(hostname) {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '[::1]'
  );
}

/**
 * The arguments of the Chromium that loads one variant: the lab's flags, the variant's host rules,
 * `--allow-running-insecure-content` (a Worker variant's page arrives over https, as browsers speak HTTP/2 over TLS
 * only, while an http:// site's page names http:// scripts and stylesheets, which Chromium would block as mixed
 * content; a site deployed behind the Workers is served over https throughout, where they load), and with
 * `outsideProxy` (a port in the server namespace, see outside-proxy.mjs) the proxy that every other host is reached
 * through: the site's host (on its mapped ports) and the lab's server bypass it (`proxyBypass`).
 *
 * A page's service worker must register as it does on the site: `--ignore-certificate-errors` lets Chromium fetch
 * its script from the lab's self-signed entrances (the context's ignoreHTTPSErrors covers the page's own requests,
 * not that fetch), and origin direct of an http site on loopback, a secure context where it is, is opened at the
 * server's address over http, which is made one too. Until 2026-11-28 neither: no variant ran a service worker.
 * @param {URL} site @param {string} serverIp @param {Entrance} entrance @param {{ outsideProxy?: number }} [options]
 */
export function variantBrowserArgs(site, serverIp, entrance, { outsideProxy } = {}) {
  const secureAsOnSite =
    site.protocol === 'http:' && isLoopbackHost(site.hostname)
      ? [`--unsafely-treat-insecure-origin-as-secure=http://${serverIp}:${entrance.plain}`]
      : [];
  return [
    ...chromiumArgs,
    `--host-resolver-rules=${hostRules(site, serverIp, entrance)}`,
    '--allow-running-insecure-content',
    '--ignore-certificate-errors',
    ...secureAsOnSite,
    ...(outsideProxy
      ? [`--proxy-server=http://${serverIp}:${outsideProxy}`, `--proxy-bypass-list=${proxyBypass(site, serverIp)}`]
      : []),
  ];
}

/**
 * The address the lab opens the page at in one variant. An https:// site is opened at its own URL (resolved to the
 * variant's TLS entrance): its absolute URLs are then the page's own origin, on the page's connection, as when
 * deployed. An http:// site is opened by the server's address, over https for a Worker variant (HTTP/2, which
 * the priority feature needs, is TLS-only in browsers) and over http for origin direct; its absolute URLs are a
 * second origin, on their own connections.
 * @param {URL} site the page's URL @param {import('./variants.mjs').Variant} variant @param {string} serverIp
 * @param {Entrance} entrance
 */
export function pageUrlOf(site, variant, serverIp, entrance) {
  const path = site.pathname + site.search;
  if (site.protocol === 'https:') return `${site.origin}${path}`;
  return variant.hops.length === 0
    ? `http://${serverIp}:${entrance.plain}${path}`
    : `https://${serverIp}:${entrance.tls}${path}`;
}

/**
 * Names the site's own URLs as the site's in what the browser reports (a request's URL, a script error's message):
 * the origin the lab opened the page at (`pageUrlOf`: the lab server's address and the variant's entrance for an
 * http site) becomes the site's, the same in every variant; other origins (third parties, the site's other ports)
 * stay as they are. Until 2026-11-28 the lab's address was in every message and list, e.g. "still open:
 * https://10.99.0.1:8822/img/a.jpg", which no site owner can tell apart from their URLs, and each variant named the
 * same request differently.
 * @param {string} pageUrl the address the lab opened @param {URL} site the address the user gave
 * @returns {(text: string) => string}
 */
export function siteUrlNamer(pageUrl, site) {
  const labOrigin = new URL(pageUrl).origin;
  if (labOrigin === site.origin) return (text) => text;
  // Only the whole origin: not followed by more host or port (http://10.99.0.1:882 is no part of :8822).
  const escaped = labOrigin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`${escaped}(?![\\w.:-])`, 'g');
  return (text) => text.replace(pattern, site.origin);
}
