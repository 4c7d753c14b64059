import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpeedTest } from '../src/engine';
import { type LocalServer, startLocalServer } from './local-server.mjs';

// A run started in a hidden tab waits, paused, until the tab is shown (pauseWhenHidden). Its clock must start when
// it does: the wait measured nothing, and a tab left in the background for an hour is not an hour-long test.

let server: LocalServer | null = null;
afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.close();
  server = null;
});

describe('a run that waited in a hidden tab', () => {
  it('starts its clock (startedAt, durationMs, sample times) once the tab is shown', async () => {
    server = await startLocalServer(undefined);
    const engine = new SpeedTest({
      serverUrl: server.url,
      packetLoss: false,
      directions: ['download'],
      maxDurationPerDirectionMs: 1000,
      maxBytesPerDirection: 5_000_000,
      idlePings: 4,
    });
    // The engine reads only `visibilityState` and the `visibilitychange` event of the page's document.
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    vi.stubGlobal('document', page);
    const run = engine.start();
    const hiddenMs = 400;
    await new Promise((resolve) => setTimeout(resolve, hiddenMs));
    const shownAtMs = Date.now();
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    const result = await run;
    expect(Date.parse(result.startedAt)).toBeGreaterThanOrEqual(shownAtMs);
    expect(result.durationMs).toBeLessThanOrEqual(Date.now() - shownAtMs);
    // The first ping went out right after the start, not `hiddenMs` into the test.
    expect(Math.min(...result.samples.map((sample) => sample.startMs))).toBeLessThan(hiddenMs);
  }, 10_000);
});
