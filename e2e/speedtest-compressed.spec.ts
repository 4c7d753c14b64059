import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { expect, type Page, test } from '@playwright/test';

// A proxy or CDN rule that compresses every type turns the download's zeros into a few bytes on the wire; Chromium
// hands the page the decoded body, so counting it read a rate far above the link. The page must fail the download
// and say why, whether it can read Content-Encoding (the Worker exposes it) or only the resource-timing sizes.
const small = 'timeMs=2000&intervalMs=100&pings=4&bytes=40000000&maxDownBytes=10000000&upload=http';

interface Result {
  download: unknown;
  upload: { bitsPerSecond: { value: number } } | null;
  directionFailures: { download: { reason: string; message: string } | null; upload: unknown };
}

/**
 * A proxy of another origin in front of the e2e Worker that gzips every `/__down` body with bytes. `hideCoding`
 * drops Content-Encoding from the exposed headers, as a proxy that rewrites CORS headers would: the page then sees
 * the coding only in the resource-timing sizes.
 */
function startCompressingProxy(target: string, hideCoding: boolean): Promise<Server> {
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', target);
    const upstream = request(
      url,
      { method: incoming.method, headers: { ...incoming.headers, host: url.host } },
      (answer) => {
        const headers = { ...answer.headers };
        const compress =
          url.pathname === '/__down' && url.searchParams.get('bytes') !== '0' && answer.statusCode === 200;
        if (compress) {
          delete headers['content-length'];
          headers['content-encoding'] = 'gzip';
        }
        if (hideCoding && headers['access-control-expose-headers']) {
          headers['access-control-expose-headers'] = 'Server-Timing, X-Received-Bytes';
        }
        outgoing.writeHead(answer.statusCode ?? 502, headers);
        (compress ? answer.pipe(createGzip()) : answer).pipe(outgoing);
      },
    );
    // A request the page gave up on (the phase's end cuts downloads) ends both sides quietly.
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.pipe(upstream);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const resultOf = (page: Page) =>
  page
    .waitForFunction(() => window.__speedkitResult, null, { timeout: 45_000 })
    .then((handle) => handle.jsonValue() as Promise<Result>);

for (const { hideCoding, how } of [
  { hideCoding: false, how: /arrived compressed \(Content-Encoding: gzip\)/ },
  { hideCoding: true, how: /arrived compressed \(\d+ bytes on the wire for \d+ delivered\)/ },
]) {
  test(`a compressing proxy (${hideCoding ? 'coding seen only in the sizes' : 'coding header exposed'}): the download fails saying so, the upload stands`, async ({
    page,
    baseURL,
  }, testInfo) => {
    const proxy = await startCompressingProxy(baseURL ?? '', hideCoding);
    try {
      const server = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      // No TURN relay: the run ends after the transfers.
      await page.route('**/turn-creds', (route) => route.fulfill({ status: 404, body: '' }));
      await page.goto(`/?${small}&server=${encodeURIComponent(server)}`);
      const result = await resultOf(page);
      expect(result.download).toBeNull();
      expect(result.directionFailures.download).toMatchObject({
        reason: 'compressed',
        message: expect.stringMatching(how),
      });
      expect(result.upload?.bitsPerSecond.value).toBeGreaterThan(0);
      const download = page.locator('.card[data-metric="download"]');
      await expect(download).toHaveAttribute('data-state', 'failed');
      await expect(download.locator('[data-note]')).toHaveText('failed: arrived compressed');
      await expect(page.locator('#status')).toContainText('arrived compressed');
      await expect(page.locator('#status')).toContainText('turn compression off for /__down');
      await page.screenshot({ path: testInfo.outputPath('compressed-download.png'), fullPage: true });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
}
