import { afterEach, describe, expect, it, vi } from 'vitest';
import { SpeedTest } from '../src/engine';
import type { SpeedTestOptions } from '../src/types';
import { type Behaviour, type LocalServer, sendGzippedZeros, sendPaced, startLocalServer } from './local-server.mjs';

// The whole engine against a real HTTP server on 127.0.0.1 (Node's fetch): what a caller sees when the server
// misbehaves, and what start() does around abort.

let server: LocalServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A quick run: one direction, a short budget, no TURN relay (Node has no WebRTC). */
async function engineAgainst(behave: Behaviour | undefined, options: Partial<SpeedTestOptions> = {}) {
  server = await startLocalServer(behave);
  return new SpeedTest({
    serverUrl: server.url,
    packetLoss: false,
    directions: ['download'],
    maxDurationPerDirectionMs: 1000,
    maxBytesPerDirection: 5_000_000,
    idlePings: 4,
    ...options,
  });
}

const settle = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (error: Error) => `${error.name}: ${error.message}`,
  );

describe('a server that stops answering', () => {
  it('fails the run when the idle pings get no answer, instead of running forever', async () => {
    const engine = await engineAgainst(() => 'handled', { pingTimeoutMs: 300 });
    const outcome = await settle(engine.start());
    expect(outcome).toMatch(/no answer from http:\/\/127\.0\.0\.1:\d+\/__down within 0\.3 s/);
    expect(engine.state).toBe('failed');
  }, 10_000);

  it('keeps the pings that came back when the server falls silent during the idle pings', async () => {
    let pings = 0;
    const engine = await engineAgainst(
      (url) =>
        url.pathname === '/__down' && url.searchParams.get('bytes') === '0' && ++pings > 3 ? 'handled' : undefined,
      { pingTimeoutMs: 300, directions: [] },
    );
    // Two warm-ups, one measured ping, then silence: the run ends on the one that came back.
    const result = await engine.start();
    expect(result.latency.idleMs.sampleCount).toBe(1);
  }, 10_000);
});

describe('a server whose /turn-creds never answers', () => {
  it('leaves packet loss out with the reason, and the run finishes', async () => {
    const engine = await engineAgainst((url) => (url.pathname === '/turn-creds' ? 'handled' : undefined), {
      packetLoss: true,
      directions: [],
      pingTimeoutMs: 300,
    });
    const result = await engine.start();
    expect(result.loss).toBeNull();
    expect(result.lossNote).toMatch(/\/turn-creds did not answer within 0\.3 s/);
  }, 10_000);
});

describe('a server without a TURN relay', () => {
  it('gives the loss phase no share of the bar once /turn-creds says so: the bar does not jump to done from part-way', async () => {
    const engine = await engineAgainst(undefined, { packetLoss: true });
    const fractions: number[] = [];
    engine.on('progress', ({ fraction }) => fractions.push(fraction));
    const result = await engine.start();
    expect(result.loss).toBeNull();
    expect(result.lossNote).toBe('not found');
    // With the loss phase's share kept (the 1 s download's is a small part of it) the last step read about 0.1.
    expect(fractions.at(-1)).toBeGreaterThan(0.9);
  }, 10_000);
});

describe('a server that cannot be reached', () => {
  it('names the endpoint it could not reach, not only "fetch failed"', async () => {
    server = await startLocalServer();
    const { url } = server;
    await server.close();
    server = null;
    const engine = new SpeedTest({ serverUrl: url, packetLoss: false });
    const outcome = await settle(engine.start());
    expect(outcome).toContain(`could not reach ${url}/__down`);
  });
});

describe('abort', () => {
  it('rejects with an AbortError when abort() is called from the last phase listener', async () => {
    const engine = await engineAgainst(undefined);
    const states: string[] = [];
    engine.on('state', (state) => states.push(state));
    engine.on('phase', ({ phase, provisional }) => {
      if (phase === 'latency' && provisional === false) engine.abort();
    });
    expect(await settle(engine.start())).toMatch(/^AbortError/);
    expect(engine.state).toBe('aborted');
    expect(states).toEqual(['running', 'aborted']);
  }, 10_000);
});

describe('request sizes', () => {
  it('never sends an upload larger than maxUploadRequestBytes, even when minRequestBytes is larger', async () => {
    const engine = await engineAgainst(undefined, {
      directions: ['upload'],
      minRequestBytes: 400_000,
      maxUploadRequestBytes: 200_000,
      uploadTransport: 'http',
    });
    const result = await engine.start();
    const uploads = result.samples.filter((sample) => sample.kind === 'upload');
    expect(uploads.length).toBeGreaterThan(0);
    for (const sample of uploads) {
      expect(sample.bytes).toBeLessThanOrEqual(200_000);
      // The bytes a sample claims are the bytes the server read.
      expect(sample.receivedBytes).toBe(sample.bytes);
    }
  }, 10_000);
});

describe('a slow uplink', () => {
  it('measures an uplink on which a 100 kB upload outlasts the time budget, instead of failing it as no data', async () => {
    // The server reads upload bodies at 25 kB/s (200 kbit/s), answering once it has read the last byte: the pace of
    // a 64 kbit/s uplink scaled to a 2 s budget. A 100 kB first request would take 4 s and be cut at the budget
    // with nothing confirmed; requests sized down from a small first one finish, several times over.
    const readBytesPerMs = 25;
    const engine = await engineAgainst(
      (url, response, request) => {
        if (url.pathname !== '/__up') return undefined;
        let received = 0;
        request.on('data', (chunk) => {
          received += chunk.length;
          request.pause();
          setTimeout(() => request.resume(), chunk.length / readBytesPerMs);
        });
        request.on('end', () => response.end(JSON.stringify({ receivedBytes: received })));
        return 'handled';
      },
      { directions: ['upload'], uploadTransport: 'http', maxDurationPerDirectionMs: 2000 },
    );
    const result = await engine.start();
    expect(result.directionFailures?.upload ?? null).toBeNull();
    expect(result.upload?.bitsPerSecond.value).toBeGreaterThan(0);
    const uploads = result.samples.filter((sample) => sample.kind === 'upload' && sample.receivedBytes !== null);
    expect(uploads.length).toBeGreaterThan(1);
  }, 15_000);
});

describe('a stream count the time left cannot judge', () => {
  // Downloads at a steady 3.2 Mbit/s (4 kB every 10 ms). A generous tolerance settles the first step on its first
  // window, about 1.5 s in; judging two streams would take 1.5 s more (transition, window, one interval past it).
  const steady: Behaviour = (url, response) => {
    const bytes = Number(url.searchParams.get('bytes'));
    if (url.pathname !== '/__down' || bytes === 0) return undefined;
    sendPaced(response, bytes, 4000, 10);
    return 'handled';
  };
  const options = { stableTolerance: 0.5, intervalMs: 250, stableIntervals: 4 };

  it('is not tried: the phase ends on the settled step, for want of time, not as stable', async () => {
    const engine = await engineAgainst(steady, { ...options, maxDurationPerDirectionMs: 2200 });
    const { download } = await engine.start();
    expect(download?.streams).toBe(1);
    expect(download?.stopReason).toBe('time');
    // Its window is a full one, so the figure is no longer the low confidence of a budget cut mid-step.
    expect(download?.bitsPerSecond.level).toBe('medium');
    expect(download?.bitsPerSecond.value).toBeGreaterThan(2_000_000);
  }, 15_000);

  it('is tried when there is time for it', async () => {
    const engine = await engineAgainst(steady, { ...options, maxDurationPerDirectionMs: 4500 });
    const { download } = await engine.start();
    expect(download?.streams).toBeGreaterThan(1);
  }, 15_000);
});

describe('phase events', () => {
  it('carry the figure of the phase they name: narrowing on phase types result without a cast', async () => {
    const engine = await engineAgainst(undefined);
    const seen: string[] = [];
    engine.on('phase', ({ phase, result, provisional }) => {
      if (phase === 'latency')
        seen.push(`latency ${provisional ? 'provisional' : 'settled'} ${result.idleMs.sampleCount}`);
      else seen.push(`${phase} ${result.bitsPerSecond.value > 0}`);
    });
    await engine.start();
    expect(seen).toEqual(['latency provisional 2', 'download true', 'latency settled 4']);
  }, 10_000);
});

describe('a tab hidden when the run starts', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('waits, sending nothing, until the tab is shown (a page opened in a background tab)', async () => {
    let requests = 0;
    const engine = await engineAgainst(() => {
      requests++;
      return undefined;
    });
    // The engine reads only `visibilityState` and the `visibilitychange` event of the page's document.
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    vi.stubGlobal('document', page);
    const states: string[] = [];
    engine.on('state', (state) => states.push(state));
    const run = engine.start();
    expect(engine.state).toBe('paused');
    // Long enough for the first pings to have gone out had the run not waited (they take a few ms on loopback).
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(requests).toBe(0);
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    const result = await run;
    expect(result.download?.bitsPerSecond.value).toBeGreaterThan(0);
    expect(requests).toBeGreaterThan(0);
    expect(states).toEqual(['running', 'paused', 'running', 'finished']);
  }, 10_000);

  // The wait measured nothing: a tab left in the background for an hour is not an hour-long test.
  it('starts its clock (startedAt, durationMs, sample times) once the tab is shown', async () => {
    const engine = await engineAgainst(undefined);
    const page = Object.assign(new EventTarget(), { visibilityState: 'hidden' });
    vi.stubGlobal('document', page);
    const run = engine.start();
    const hiddenMs = 400;
    await new Promise((resolve) => setTimeout(resolve, hiddenMs));
    const shownAtMs = Date.now();
    // durationMs is on the performance.now() clock: Date.now() counts whole ms and read 133 against a 133.4 ms run.
    const shownAtPerfMs = performance.now();
    page.visibilityState = 'visible';
    page.dispatchEvent(new Event('visibilitychange'));
    const result = await run;
    expect(Date.parse(result.startedAt)).toBeGreaterThanOrEqual(shownAtMs);
    expect(result.durationMs).toBeLessThanOrEqual(performance.now() - shownAtPerfMs);
    // The first ping went out right after the start, not `hiddenMs` into the test.
    expect(Math.min(...result.samples.map((sample) => sample.startMs))).toBeLessThan(hiddenMs);
  }, 10_000);
});

describe('progress through the idle pings', () => {
  it('moves the bar with each idle ping, and says the pings after the download are idle latency', async () => {
    // On a 600 ms path the start pings took 7 s with the bar at 0, and the pings after the download 12 s with no
    // progress at all: the page kept showing "Download · <last rate>" over a finished download.
    const engine = await engineAgainst(undefined, { idlePings: 4 });
    const events: string[] = [];
    const fractions: number[] = [];
    engine.on('progress', ({ phase, fraction }) => {
      events.push(phase);
      fractions.push(fraction);
    });
    engine.on('phase', ({ phase }) => events.push(`phase ${phase}`));
    await engine.start();
    const downloadDone = events.indexOf('phase download');
    const startPings = events.slice(0, events.indexOf('phase latency')).filter((event) => event === 'latency');
    expect(startPings.length).toBe(2);
    // Idle latency again, one event as the pings begin and one per ping, before the settled latency phase event.
    expect(events.slice(downloadDone + 1)).toEqual([
      'latency',
      'latency',
      'latency',
      'latency',
      'latency',
      'phase latency',
    ]);
    const latencyFractions = fractions.slice(-5);
    for (let index = 1; index < latencyFractions.length; index++)
      expect(latencyFractions[index]).toBeGreaterThan(latencyFractions[index - 1] ?? 1);
    expect(fractions[1]).toBeGreaterThan(fractions[0] ?? 1);
  }, 10_000);
});

describe('a direction that gets nothing through', () => {
  /** Both directions over HTTP requests; `behave` takes the upload requests over. */
  const bothDirections = (behave: Behaviour) =>
    engineAgainst(behave, { directions: ['download', 'upload'], uploadTransport: 'http' });

  it('keeps the download when a proxy refuses every upload, and says why the upload has no figure', async () => {
    const engine = await bothDirections((url, response) => {
      if (url.pathname !== '/__up') return undefined;
      response.statusCode = 403;
      response.end('{"error":"uploads are blocked here"}');
      return 'handled';
    });
    const failed: string[] = [];
    engine.on('phase-failed', ({ phase, failure }) => failed.push(`${phase} ${failure.reason}`));
    const result = await engine.start();
    expect(result.download?.bitsPerSecond.value).toBeGreaterThan(0);
    expect(result.upload).toBeNull();
    expect(result.directionFailures?.upload).toMatchObject({ reason: 'error', message: expect.stringMatching(/403/) });
    expect(failed).toEqual(['upload error']);
  }, 10_000);

  it('keeps the download when the upload bodies are held and never confirmed (no data)', async () => {
    // The server never reads the bodies nor answers: a proxy sitting on POST bodies.
    const engine = await bothDirections((url) => (url.pathname === '/__up' ? 'handled' : undefined));
    const result = await engine.start();
    expect(result.download).not.toBeNull();
    expect(result.directionFailures?.upload).toMatchObject({
      reason: 'no-data',
      message: expect.stringMatching(/^the server received no data in \d+\.\d s \(upload\)$/),
    });
    expect(result.latency.uploadLoadedMs).toBeNull();
  }, 10_000);

  it('fails the run when neither direction got through, keeping both reasons in the partial result', async () => {
    const engine = await bothDirections((url, response) => {
      if (url.pathname === '/__up' || (url.pathname === '/__down' && url.searchParams.get('bytes') !== '0')) {
        response.statusCode = 503;
        response.end();
        return 'handled';
      }
      return undefined;
    });
    expect(await settle(engine.start())).toMatch(/^Error: 503 from \S+\/__down\?\S+; 503 from \S+\/__up\?\S+$/);
    const partial = engine.partialResult();
    expect(partial?.partial?.reason).toBe('failed');
    expect(partial?.directionFailures?.download?.reason).toBe('error');
    expect(partial?.directionFailures?.upload?.reason).toBe('error');
  }, 10_000);
});

describe('a proxy that compresses the test data', () => {
  it('fails the download naming the coding, instead of reading the decoded zeros as the rate', async () => {
    const engine = await engineAgainst(
      (url, response) => {
        if (url.pathname !== '/__down' || url.searchParams.get('bytes') === '0') return undefined;
        sendGzippedZeros(response, Number(url.searchParams.get('bytes')));
        return 'handled';
      },
      { directions: ['download', 'upload'], uploadTransport: 'http' },
    );
    const result = await engine.start();
    expect(result.download).toBeNull();
    expect(result.directionFailures?.download).toMatchObject({
      reason: 'compressed',
      message: expect.stringMatching(/^the download from \S+\/__down arrived compressed \(Content-Encoding: gzip\)/),
    });
    // No byte of the compressed transfers was counted as moved.
    expect(result.directionFailures?.download?.bytes).toBe(0);
    expect(result.upload?.bitsPerSecond.value).toBeGreaterThan(0);
  }, 10_000);
});
