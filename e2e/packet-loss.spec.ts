import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { build } from 'esbuild';
import type { runLossPhase } from '../packages/speedtest/src/phases/loss';
import { startTurnServer, turnserverBinary } from '../scripts/lib/turn.mjs';

// The packet-loss phase in real Chromium through a real coturn on loopback, where nothing is lost.
// Its own TURN port (E2E_PORT + 1000) so a developer's `npm start` on 3478 can keep running.
const turnPort = Number(process.env.E2E_PORT ?? 8799) + 1000;

/** What the bundled phase (packages/speedtest/src/phases/loss.ts) puts on `window`, as far as this spec uses it. */
interface LossModule {
  runLossPhase: typeof runLossPhase;
}

test.skip(!existsSync(turnserverBinary), 'coturn is not installed (sudo apt-get install coturn)');

test('measures 0 % loss each way through coturn on loopback, with the sample count and an interval', async ({
  page,
}) => {
  const turn = await startTurnServer({ listenPort: turnPort, minRelayPort: turnPort + 10, relayPorts: 8 });
  try {
    // The phase bundled as the page would run it; credentials made the way /turn-creds makes them.
    const bundle = await build({
      entryPoints: [fileURLToPath(new URL('../packages/speedtest/src/phases/loss.ts', import.meta.url))],
      bundle: true,
      format: 'iife',
      globalName: 'speedkitLoss',
      write: false,
    });
    const username = `${Math.floor(Date.now() / 1000) + 300}:e2e`;
    const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
    // A blank page: the phase needs no server of ours, only the relay (and the speed page would start a test).
    await page.setContent('<!doctype html><title>loss</title>');
    await page.addScriptTag({ content: bundle.outputFiles[0]?.text ?? '' });
    const result = await page.evaluate(
      async (turnCredentials) => {
        const loss = (window as unknown as { speedkitLoss: LossModule }).speedkitLoss;
        return loss.runLossPhase({
          turn: turnCredentials,
          packets: 400,
          packetIntervalMs: 4,
          packetBytes: 800,
          drainMs: 1000,
          connectTimeoutMs: 15_000,
          signal: new AbortController().signal,
        });
      },
      { username, credential, urls: turn.urls },
    );
    for (const direction of [result.up, result.down]) {
      expect(direction.sent).toBe(400);
      expect(direction.received).toBe(400);
      expect(direction.lossPct).toBe(0);
      expect(direction.lowPct).toBe(0);
      // 0 of 400 still leaves an upper bound near 1 %: the interval says how much 400 packets can tell.
      expect(direction.highPct).toBeGreaterThan(0.5);
      expect(direction.highPct).toBeLessThan(1.5);
    }
    // Direction is attributable only because one peer reached the relay over UDP and the other over TCP.
    expect(result.relayProtocols).toEqual({ udpPeer: 'udp', tcpPeer: 'tcp' });
    expect(result.relay).toBe(`turn:127.0.0.1:${turnPort}?transport=udp`);
  } finally {
    await turn.stop();
  }
});

test('the page hides the loss row and says why when the server has no TURN relay', async ({ page }) => {
  // The e2e wrangler dev gets no TURN_SECRET (npm start writes it to .dev.vars only while coturn runs).
  const creds = await page.request.get('/turn-creds');
  test.skip(creds.status() === 200, 'a TURN relay is configured in .dev.vars (npm start is running)');
  expect(creds.status()).toBe(404);
  await page.goto('/?bytes=4000000&timeMs=1000&intervalMs=100&pings=5&maxDownBytes=2000000&maxUpBytes=2000000');
  const result = await page
    .waitForFunction(
      () => window.__speedkitResult ?? (window.__speedkitError ? { error: window.__speedkitError } : null),
    )
    .then((handle) => handle.jsonValue() as Promise<{ loss: unknown; lossNote: string | null; error?: string }>);
  expect(result.error).toBeUndefined();
  expect(result.loss).toBeNull();
  expect(result.lossNote).toMatch(/no TURN server is configured/);
  await expect(page.locator('#loss-row')).toBeHidden();
  await expect(page.locator('#loss-note')).toBeVisible();
  await expect(page.locator('#loss-note')).toContainText('Packet loss not shown: no TURN server is configured');
});
