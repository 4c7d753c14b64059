import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';

// A proxy that buffers request bodies (nginx does by default) hands the server each upload only once it holds all of
// it: the server's read times are then those of a local copy, not of the link. The engine placed the bytes at those
// times and read 1.8 Gbit/s through an 80 Mbit/s proxy; it must notice and spread them over the requests instead.
const small = 'timeMs=6000&intervalMs=200&pings=4&bytes=80000000&directions=upload&upload=http';

/**
 * A proxy of another origin in front of the e2e Worker that takes request bodies in at `linkBitsPerSecond`, shared by
 * all its connections (one link), and passes each on as it comes (`buffer` false) or whole once it has it all.
 */
function startLinkProxy(target: string, linkBitsPerSecond: number, buffer: boolean): Promise<Server> {
  let linkFreeAtMs = 0;
  const server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? '/', target);
    const held: Buffer[] = [];
    const upstream = request(
      url,
      { method: incoming.method, headers: { ...incoming.headers, host: url.host } },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', () => outgoing.destroy());
    outgoing.on('close', () => upstream.destroy());
    incoming.on('data', (chunk: Buffer) => {
      // Each chunk takes its time on the link after the ones before it, whichever connection sent them.
      const nowMs = performance.now();
      linkFreeAtMs = Math.max(nowMs, linkFreeAtMs) + ((chunk.length * 8) / linkBitsPerSecond) * 1000;
      incoming.pause();
      setTimeout(() => {
        if (buffer) held.push(chunk);
        else upstream.write(chunk);
        incoming.resume();
      }, linkFreeAtMs - nowMs);
    });
    incoming.on('end', () =>
      setTimeout(
        () => upstream.end(buffer ? Buffer.concat(held) : undefined),
        Math.max(0, linkFreeAtMs - performance.now()) + 1,
      ),
    );
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

interface Upload {
  bitsPerSecond: { value: number };
  bufferedByProxy?: boolean;
}

// 80 Mbit/s streaming is the control; 8 Mbit/s, where uploads stay under 1 MB, is where a first form of the check
// never judged.
for (const { linkBitsPerSecond, buffer } of [
  { linkBitsPerSecond: 80e6, buffer: false },
  { linkBitsPerSecond: 80e6, buffer: true },
  { linkBitsPerSecond: 8e6, buffer: true },
]) {
  test(`uploads through an ${linkBitsPerSecond / 1e6} Mbit/s proxy that ${buffer ? 'buffers each body' : 'streams bodies on'}: the link's rate`, async ({
    page,
    baseURL,
  }) => {
    const proxy = await startLinkProxy(baseURL ?? '', linkBitsPerSecond, buffer);
    try {
      const server = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
      // No TURN relay: the run ends after the transfers.
      await page.route('**/turn-creds', (route) => route.fulfill({ status: 404, body: '' }));
      await page.goto(`/?${small}&server=${encodeURIComponent(server)}`);
      const handle = await page.waitForFunction(() => window.__speedkitResult, null, { timeout: 55_000 });
      const upload = ((await handle.jsonValue()) as { upload: Upload | null }).upload;
      // Wide bounds: the proxy's pacing runs on Node timers on a busy machine; the old engine read 23× the link.
      expect(upload?.bitsPerSecond.value).toBeGreaterThan(linkBitsPerSecond * 0.7);
      expect(upload?.bitsPerSecond.value).toBeLessThan(linkBitsPerSecond * 1.3);
      expect(upload?.bufferedByProxy).toBe(buffer ? true : undefined);
      // The upload's details say how it was counted.
      await page.locator('.card[data-metric="upload"]').click();
      const proxyNote = page.locator('#details', { hasText: 'A proxy on the way took each upload in whole' });
      await expect(proxyNote).toHaveCount(buffer ? 1 : 0);
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
}
