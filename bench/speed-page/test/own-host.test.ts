import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/free-port.mjs';
import { selfSignedCert } from '../../lib/self-signed-cert.mjs';
import { h2FrontArgs } from '../../priority/lab/h2-front.mjs';
import { type Entrance, hostRules, pageUrlOf, siteUrlNamer, variantBrowserArgs } from '../addressing.mjs';
import { measureRun } from '../lab.mjs';
import { loadPage } from '../measure.mjs';
import { startOriginBridge } from '../origin-bridge.mjs';
import { connectTarget, startOutsideProxy } from '../outside-proxy.mjs';
import { profiles } from '../profiles.mjs';
import { launchChromium, type TestBrowser } from './test-chromium';

// A page's absolute URLs to its own host must reach the variant under test, not fail: the lab's real entrances
// (the HTTP/2 front with its cleartext port, the relay with its TLS port, the origin bridge) on loopback, Chromium
// with the lab's host rules. The "site" and the stand-in for a Worker chain answer the same paths but say who they
// are in the script they serve, so a request that bypassed the entrance would show.
const relayScript = fileURLToPath(new URL('../relay.mjs', import.meta.url));
const png = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/** Absolute URLs of both schemes to `base` (an origin without a trailing slash). */
function pageNaming(scriptBase: string, imageBase: string, styleBase: string, moduleBase?: string) {
  // A module script is fetched in CORS mode: from another origin it needs the answer to admit the page's.
  const module = moduleBase ? `<script type="module" src="${moduleBase}/m.js"></script>` : '';
  return `<!doctype html><html><head><link rel="stylesheet" href="${styleBase}/a.css"></head><body>
<img id="photo" src="${imageBase}/i.png"><script src="${scriptBase}/s.js"></script>${module}</body></html>`;
}

/** Ports of the third parties' servers (https and http), known once they listen. */
const thirdParty = { https: 0, http: 0 };
/** Answers the site never finishes (an image that holds the load event), ended when the test ends. */
const hanging: http.ServerResponse[] = [];

/** What the site, the stand-in for a Worker chain and a third party answer: the same paths, each saying who it is. */
function answer(who: string, sitePort: () => number): http.RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname;
    const local = `http://127.0.0.1:${sitePort()}`;
    const pages: Record<string, string> = {
      '/loopback': pageNaming(local, local, local, local),
      // An https site with a name: an https script, an http image (Chromium upgrades it to https on port 443) and an
      // http stylesheet (mixed content the lab allows, on port 80).
      '/named': pageNaming('https://www.example.test', 'http://www.example.test', 'http://www.example.test'),
      // Another port of the site's own host (an API or asset server beside a local site): https script and image,
      // http stylesheet, as from a third party.
      '/other-port': pageNaming(
        `https://localhost:${thirdParty.https}`,
        `https://localhost:${thirdParty.https}`,
        `http://localhost:${thirdParty.http}`,
      ),
      // A third party's script and image over https and its stylesheet over http.
      '/third': pageNaming(
        `https://cdn.example.test:${thirdParty.https}`,
        `https://cdn.example.test:${thirdParty.https}`,
        `http://cdn.example.test:${thirdParty.http}`,
      ),
    };
    // Pages whose messages name the site's URLs: a missing script, a script error naming the page's origin, an image
    // that never arrives, a page that moves on to another of the site's pages.
    const broken = `<!doctype html><body><p>broken</p><script src="/missing.js"></script>
<script>throw new Error('no ' + location.origin + '/x.js')</script></body>`;
    const messagePages: Record<string, string> = {
      '/broken': broken,
      '/stuck': '<!doctype html><body><p>stuck</p><img src="/never-image"></body>',
      '/moves-on': '<!doctype html><meta http-equiv="refresh" content="0.2;url=/loopback"><p>moving on</p>',
    };
    if (path === '/never-image') hanging.push(response);
    else if (messagePages[path]) response.writeHead(200, { 'content-type': 'text/html' }).end(messagePages[path]);
    else if (path === '/sw') {
      const register = `navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready)
        .then(() => { window.sw = 'ready'; }, (error) => { window.sw = error.message; })`;
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><script>${register}</script>`);
    } else if (path === '/sw.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end("self.addEventListener('fetch', () => {});");
    else if (pages[path]) response.writeHead(200, { 'content-type': 'text/html' }).end(pages[path]);
    else if (path === '/m.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(`window.moduleVia='${who}'`);
    else if (path === '/s.js')
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(`window.via='${who}'`);
    else if (path === '/a.css') response.writeHead(200, { 'content-type': 'text/css' }).end('body{color:rgb(1,2,3)}');
    else if (path === '/i.png') response.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else response.writeHead(404).end();
  };
}

async function listen(target: http.Server | https.Server) {
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  return (target.address() as net.AddressInfo).port;
}

/** Starts `node <args>` and resolves once it prints `ready`. */
function start(args: string[], ready: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 20_000);
    const seen = (chunk: Buffer) => {
      out += chunk;
      if (out.includes(ready)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
  });
}

let work = '';
let sitePort = 0;
const site = http.createServer(answer('site', () => sitePort));
let relay: Entrance = { tls: 0, plain: 0 };
/**
 * The stand-in for a Worker chain: passes every request on to the relay (the bridge, then the site), as a Worker's
 * fetch to its origin does, and marks each answer, so a test sees which requests came through a Worker variant.
 */
const worker = http.createServer((request, response) => {
  const headers = { ...request.headers, host: `127.0.0.1:${relay.plain}` };
  const upstream = http.request(
    { host: '127.0.0.1', port: relay.plain, path: request.url, method: request.method, headers },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-via': 'worker' });
      answer.pipe(response);
    },
  );
  upstream.on('error', () => response.writeHead(502).end());
  request.pipe(upstream);
});
let bridge: http.Server | undefined;
let outside: http.Server | undefined;
let thirdPartyServers: (http.Server | https.Server)[] = [];
let outsidePort = 0;

/**
 * DNS for the test: cdn.example.test and localhost are this machine (net.connect asks for every address since
 * Node 20).
 */
const lookup: net.LookupFunction = (hostname, options, callback) => {
  if (hostname !== 'cdn.example.test' && hostname !== 'localhost') {
    callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), '', 4);
    return;
  }
  if (options.all)
    (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
      { address: '127.0.0.1', family: 4 },
    ]);
  else callback(null, '127.0.0.1', 4);
};
const children: ChildProcess[] = [];
let front: Entrance = { tls: 0, plain: 0 };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'speed-page-own-host-'));
  const { cert, key } = selfSignedCert(work, 'speed-page-test');
  sitePort = await listen(site);
  const workerPort = await listen(worker);
  front = { tls: await freePort(), plain: await freePort() };
  relay = { tls: await freePort(), plain: await freePort() };
  const upstream = `http://127.0.0.1:${workerPort}`;
  const frontArgs = h2FrontArgs({
    port: front.tls,
    plainPort: front.plain,
    upstream,
    mode: 'cf',
    cert,
    key,
    paceBytesPerSecond: 50e6,
  });
  // The front says "listening" once both its ports are.
  children.push(await start(frontArgs, 'listening'));
  const socketPath = join(work, 'origin.sock');
  bridge = await startOriginBridge({ target: new URL(`http://127.0.0.1:${sitePort}`), socketPath, loaderDir: work });
  const relayArgs = ['--port', String(relay.plain), '--socket', socketPath, '--tls-port', String(relay.tls)];
  children.push(await start([relayScript, ...relayArgs, '--cert', cert, '--key', key], 'relay (TLS)'));
  // The third parties, and the lab's way out to them: the outside proxy and the relay to it.
  const thirdPartyAnswer = answer('third party', () => sitePort);
  const secure = https.createServer({ cert: readFileSync(cert), key: readFileSync(key) }, thirdPartyAnswer);
  const plain = http.createServer(thirdPartyAnswer);
  thirdPartyServers = [secure, plain];
  thirdParty.https = await listen(secure);
  thirdParty.http = await listen(plain);
  const outsideSocket = join(work, 'outside.sock');
  outside = await startOutsideProxy({ socketPath: outsideSocket, lookup });
  outsidePort = await freePort();
  children.push(await start([relayScript, '--port', String(outsidePort), '--socket', outsideSocket], 'relay on'));
}, 60_000);

afterAll(() => {
  for (const response of hanging) response.end();
  for (const child of children) child.kill();
  bridge?.close();
  outside?.close();
  for (const each of thirdPartyServers) each.close();
  site.close();
  worker.close();
  rmSync(work, { recursive: true, force: true });
});

const workerVariant = { id: 'worker-off', label: 'Worker', feature: null, hops: [{ env: 'images' as const }] };
const directVariant = { id: 'origin', label: 'Origin direct', feature: null, hops: [] };

/**
 * Loads the page `siteUrl` as the lab would in `variant` (Chromium started with the lab's arguments, the page opened
 * at the lab's address for it); what the page got.
 */
async function load(
  siteUrl: string,
  variant: typeof workerVariant | typeof directVariant,
  entrance: Entrance,
  options: { outsideProxy?: number } = {},
) {
  const site = new URL(siteUrl);
  const browser = await launchChromium(variantBrowserArgs(site, '127.0.0.1', entrance, options));
  try {
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    const failed: string[] = [];
    page.on('requestfailed', (request) => failed.push(`${request.url()} ${request.failure()?.errorText}`));
    // Which way each answer came: through the stand-in Worker chain ('worker') or not ('none').
    const ways = new Set<string>();
    page.on('response', (response) => {
      if (!response.url().endsWith('/favicon.ico')) ways.add(response.headers()['x-via'] ?? 'none');
    });
    await page.goto(pageUrlOf(site, variant, '127.0.0.1', entrance), { waitUntil: 'load' });
    const got = await page.evaluate(() => ({
      via: (window as unknown as { via?: string }).via,
      moduleVia: (window as unknown as { moduleVia?: string }).moduleVia,
      imageWidth: (document.getElementById('photo') as HTMLImageElement).naturalWidth,
      color: getComputedStyle(document.body).color,
    }));
    return { ...got, failed, through: [...ways].sort() };
  } finally {
    await browser.close();
  }
}

/** A page whose script ran (from the site), whose image and stylesheet loaded, and whose requests all succeeded. */
const loaded = { via: 'site', imageWidth: 1, color: 'rgb(1, 2, 3)', failed: [] };

describe('a page’s absolute URLs to its own host', () => {
  it('reach a Worker variant’s front: an http site on loopback (page on the front, URLs over cleartext)', async () => {
    const got = await load(`http://127.0.0.1:${sitePort}/loopback`, workerVariant, front);
    // The module script came from another origin than the page's (the lab's address), yet ran: as when deployed.
    expect(got).toEqual({ ...loaded, moduleVia: 'site', through: ['worker'] });
  }, 60_000);

  it('reach a Worker variant’s front: an https site by name, opened at its own URL, http:// URLs included', async () => {
    const got = await load('https://www.example.test/named', workerVariant, front);
    expect(got).toEqual({ ...loaded, through: ['worker'] });
  }, 60_000);

  it('reach the site through the relay in the direct variant, over TLS too', async () => {
    const got = await load('https://www.example.test/named', directVariant, relay);
    expect(got).toEqual({ ...loaded, through: ['none'] });
  }, 60_000);

  it('reach the site through the relay in the direct variant: an http site on loopback', async () => {
    const got = await load(`http://127.0.0.1:${sitePort}/loopback`, directVariant, relay);
    expect(got).toEqual({ ...loaded, moduleVia: 'site', through: ['none'] });
  }, 60_000);
});

/**
 * Whether the page `siteUrl` is a secure context and its service worker gets ready, loaded as the lab would in
 * `variant`, the lab's server at `serverIp` (a name the test maps to 127.0.0.1: loopback addresses are trustworthy
 * to Chromium whatever the lab does, the lab's server address is not).
 */
async function serviceWorkerOf(
  siteUrl: string,
  variant: typeof workerVariant | typeof directVariant,
  entrance: Entrance,
  serverIp: string,
) {
  const site = new URL(siteUrl);
  const args = variantBrowserArgs(site, serverIp, entrance).map((arg) =>
    arg.startsWith('--host-resolver-rules=') ? `${arg}, MAP ${serverIp} 127.0.0.1` : arg,
  );
  const browser = await launchChromium(args);
  try {
    const page = await (await browser.newContext({ ignoreHTTPSErrors: true })).newPage();
    await page.goto(pageUrlOf(site, variant, serverIp, entrance), { waitUntil: 'load' });
    const secure = await page.evaluate(() => window.isSecureContext);
    if (!secure) return { secure, sw: 'no service workers outside a secure context' };
    await page.waitForFunction(() => (window as unknown as { sw?: string }).sw !== undefined, null, {
      timeout: 20_000,
    });
    return { secure, sw: await page.evaluate(() => (window as unknown as { sw?: string }).sw) };
  } finally {
    await browser.close();
  }
}

// A page on the site's own loopback (http://127.0.0.1:3000, a secure context there) registers its service worker,
// as it does for its owner. Until 2026-11-28 it did in no variant: origin direct opened it at the lab server's
// address over http, not a secure context (no navigator.serviceWorker: a script error origin direct alone raised),
// and the Worker variants' https entrances have the lab's own certificate, for which Chromium refuses to fetch a
// service worker's script even when the page's certificate errors are ignored.
describe('service workers and secure contexts', () => {
  it('register through a Worker variant’s TLS entrance', async () => {
    const got = await serviceWorkerOf(`http://localhost:${sitePort}/sw`, workerVariant, front, 'lab.test');
    expect(got).toEqual({ secure: true, sw: 'ready' });
  }, 60_000);

  it('register in origin direct of a site on loopback, opened at the lab server’s address over http', async () => {
    const got = await serviceWorkerOf(`http://localhost:${sitePort}/sw`, directVariant, relay, 'lab.test');
    expect(got).toEqual({ secure: true, sw: 'ready' });
  }, 60_000);

  it('leave origin direct of a site that is not on loopback outside a secure context, as its visitors are', async () => {
    const got = await serviceWorkerOf('http://www.example.test/sw', directVariant, relay, 'lab.test');
    expect(got.secure).toBe(false);
  }, 60_000);
});

describe('third parties', () => {
  it('load through the outside proxy in a Worker variant (https tunnelled, http forwarded)', async () => {
    const got = await load(`http://127.0.0.1:${sitePort}/third`, workerVariant, front, { outsideProxy: outsidePort });
    // The page through the Worker chain, the third party's files not.
    expect(got).toEqual({ ...loaded, via: 'third party', through: ['none', 'worker'] });
  }, 60_000);

  // The site's host on another port is neither the site (the host rules map only its own port) nor, until
  // 2026-11-28, a third party: the proxy bypass named the whole host, and Chromium never proxies loopback, so those
  // requests went nowhere from the client namespace (an iframe, images or an API on a second local port failed in
  // every variant).
  it('load from another port of the site’s own host through the outside proxy, loopback included', async () => {
    // Here the browser shares the test's loopback and would reach the port without the proxy: what the proxy saw
    // shows the way the lab's client namespace, which has no such port, needs. The site is named localhost, as the
    // lab's server (127.0.0.1 here, its own address in the lab) is never proxied.
    const proxied: string[] = [];
    const onConnect = (request: http.IncomingMessage) => proxied.push(`CONNECT ${request.url}`);
    const onRequest = (request: http.IncomingMessage) => proxied.push(`${request.method} ${request.url}`);
    outside?.on('connect', onConnect).on('request', onRequest);
    try {
      // The browser's own calls home (it makes some whatever its flags) are not this test's.
      const local = () => [...new Set(proxied)].filter((line) => /localhost|127\.0\.0\.1/.test(line)).sort();
      const expected = [`CONNECT localhost:${thirdParty.https}`, `GET http://localhost:${thirdParty.http}/a.css`];
      const got = await load(`http://localhost:${sitePort}/other-port`, workerVariant, front, {
        outsideProxy: outsidePort,
      });
      expect(got).toEqual({ ...loaded, via: 'third party', through: ['none', 'worker'] });
      expect(local()).toEqual(expected);
      proxied.length = 0;
      const direct = await load(`http://localhost:${sitePort}/other-port`, directVariant, relay, {
        outsideProxy: outsidePort,
      });
      expect(direct).toEqual({ ...loaded, via: 'third party', through: ['none'] });
      expect(local()).toEqual(expected);
      // Chromium's own update check (within a second of each launch) does not take the page's way out.
      expect(proxied.filter((line) => /update\.googleapis\.com|clients2\.google\.com/.test(line))).toEqual([]);
    } finally {
      outside?.off('connect', onConnect).off('request', onRequest);
    }
  }, 60_000);

  it('fail, quickly and only they, without it', async () => {
    const startMs = performance.now();
    const got = await load(`http://127.0.0.1:${sitePort}/third`, workerVariant, front);
    expect(got.via).toBeUndefined();
    expect(got.failed).toHaveLength(3);
    expect(performance.now() - startMs).toBeLessThan(20_000);
  }, 60_000);

  it('CONNECT targets: host and port, nothing else', () => {
    expect(connectTarget('cdn.example.test:443')).toEqual({ host: 'cdn.example.test', port: 443 });
    expect(connectTarget('[2001:db8::1]:8443')).toEqual({ host: '2001:db8::1', port: 8443 });
    for (const bad of ['cdn.example.test', 'cdn.example.test:0', 'a:70000', 'http://a:1', 'a b:1', 'u@a:1', ':443']) {
      expect(connectTarget(bad)).toBeNull();
    }
  });
});

// Each variant is opened at its own address (pageUrlOf): an http site's page at the lab server's entrance for it.
// Until 2026-11-28 the lab's messages named the site's URLs by that address ("still open:
// https://10.99.0.1:8822/img/a.jpg"), which a site owner cannot tell apart from their URLs, differently in each
// variant; they now name the site's.
describe('what a load reports names the site’s own URLs as the site’s', () => {
  const entranceOf = { worker: () => front, direct: () => relay };
  for (const [name, variant] of [
    ['worker', workerVariant],
    ['direct', directVariant],
  ] as const) {
    async function inBrowser<T>(use: (browser: TestBrowser) => Promise<T>) {
      const browser = await launchChromium(
        variantBrowserArgs(new URL(`http://127.0.0.1:${sitePort}/`), '127.0.0.1', entranceOf[name]()),
      );
      try {
        return await use(browser);
      } finally {
        await browser.close();
      }
    }
    /** The site's URL of `path`, and the address the lab opens it at in this variant. */
    const addresses = (path: string) => {
      const site = new URL(`http://127.0.0.1:${sitePort}${path}`);
      return { site, opened: pageUrlOf(site, variant, '127.0.0.1', entranceOf[name]()) };
    };

    it(`in ${variant.label}: failed requests, script errors and the request timeline`, async () => {
      const { site, opened } = addresses('/broken');
      expect(new URL(opened).origin).not.toBe(site.origin);
      const page = await inBrowser((browser) =>
        loadPage(browser, opened, profiles.desktop, { timeoutMs: 30_000, site }),
      );
      expect(page.failedRequests).toEqual([`404 http://127.0.0.1:${sitePort}/missing.js`]);
      expect(page.pageErrors).toEqual([`no http://127.0.0.1:${sitePort}/x.js`]);
      expect(page.requestTimeline.map((r: { url: string }) => r.url)).toEqual([
        `http://127.0.0.1:${sitePort}/broken`,
        `http://127.0.0.1:${sitePort}/missing.js`,
      ]);
    }, 60_000);

    it(`in ${variant.label}: the request that held the load event, in the run's error`, async () => {
      const { site, opened } = addresses('/stuck');
      const base = { profile: 'desktop', variant: variant.id, run: 1 };
      const labels = { run: 'run 1/1', variant: variant.label };
      const { record } = await inBrowser((browser) =>
        measureRun(browser, opened, profiles.desktop, base, labels, () => {}, { timeoutMs: 3000, site }),
      );
      expect(record.error).toBe(
        `the page's load event did not fire within 3 s; still open: http://127.0.0.1:${sitePort}/never-image ` +
          '(a page this heavy on this link needs more: --timeout 9)',
      );
    }, 60_000);

    it(`in ${variant.label}: where a page that moved on by itself went`, async () => {
      const { site, opened } = addresses('/moves-on');
      const moving = inBrowser((browser) => loadPage(browser, opened, profiles.desktop, { timeoutMs: 30_000, site }));
      await expect(moving).rejects.toThrow(
        `the page moved on by itself (a meta refresh or a script) to http://127.0.0.1:${sitePort}/loopback: ` +
          'pass the address it ends on',
      );
    }, 60_000);
  }
});

describe('siteUrlNamer', () => {
  it('names the lab’s address for the page as the site, whole origins only, third parties as they are', () => {
    const onSite = siteUrlNamer('https://10.99.0.1:8822/a?b', new URL('http://127.0.0.1:3000/a?b'));
    expect(onSite('404 https://10.99.0.1:8822/img/a.jpg')).toBe('404 http://127.0.0.1:3000/img/a.jpg');
    expect(onSite('no https://10.99.0.1:8822')).toBe('no http://127.0.0.1:3000');
    expect(onSite('https://10.99.0.1:88221/x https://10.99.0.10:8822/x')).toBe(
      'https://10.99.0.1:88221/x https://10.99.0.10:8822/x',
    );
    expect(onSite('https://cdn.example.test/a.js')).toBe('https://cdn.example.test/a.js');
    // An https site is opened at its own URL: nothing to rename.
    const same = siteUrlNamer('https://shop.test/p', new URL('https://shop.test/p'));
    expect(same('https://shop.test/a.js')).toBe('https://shop.test/a.js');
  });
});

describe('hostRules', () => {
  const entrance = { tls: 8822, plain: 8832 };
  it('maps a site on another port to the entrance of its own scheme', () => {
    expect(hostRules(new URL('http://localhost:3000/a'), '10.9.0.2', entrance)).toBe(
      'MAP localhost:3000 10.9.0.2:8832',
    );
    expect(hostRules(new URL('https://dev.test:8443/'), '10.9.0.2', entrance)).toBe('MAP dev.test:8443 10.9.0.2:8822');
  });
  it('maps both default ports, each to its scheme’s entrance', () => {
    const rules = 'MAP www.example.com:80 10.9.0.2:8832, MAP www.example.com:443 10.9.0.2:8822';
    expect(hostRules(new URL('https://www.example.com/'), '10.9.0.2', entrance)).toBe(rules);
    expect(hostRules(new URL('http://www.example.com/'), '10.9.0.2', entrance)).toBe(rules);
  });
});
