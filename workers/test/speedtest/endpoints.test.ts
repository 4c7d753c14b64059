import { exports } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { maxDownloadBytes, maxUploadBytes } from '../../src/speedtest/limits';
import { connectionMeta } from '../../src/speedtest/meta';
import { handleUp } from '../../src/speedtest/up';
import { handleUpWs } from '../../src/speedtest/up-ws';

const base = 'http://speedkit.test';
const call = (path: string, init?: RequestInit) => exports.default.fetch(new Request(`${base}${path}`, init));

// The first request starts the Worker (every capability's modules, Wasm included): on a busy machine that alone can
// outlast a test's timeout, so it happens here, outside the tests.
beforeAll(async () => {
  await (await call('/__down?bytes=0')).arrayBuffer();
}, 60_000);

function expectMeasurementHeaders(response: Response): void {
  expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('timing-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-expose-headers')).toContain('Server-Timing');
  // A page of another origin sees a proxy's compression at once (the engine then fails the download).
  expect(response.headers.get('access-control-expose-headers')).toContain('Content-Encoding');
  expect(response.headers.get('server-timing')).toMatch(/^cfRequestDuration;dur=\d+(\.\d+)?$/);
}

describe('GET /__down', () => {
  it('returns exactly the requested number of bytes with the contract headers', async () => {
    const response = await call('/__down?bytes=100000');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/octet-stream');
    expectMeasurementHeaders(response);
    expect((await response.arrayBuffer()).byteLength).toBe(100000);
  });

  it('streams a body larger than one generated chunk without losing bytes', async () => {
    const response = await call('/__down?bytes=1000003');
    const body = new Uint8Array(await response.arrayBuffer());
    expect(body.byteLength).toBe(1000003);
    expect(body.every((byte) => byte === 0)).toBe(true);
  });

  it('answers bytes=0 with an empty body, the latency probe', async () => {
    const response = await call('/__down?bytes=0&measId=abc&during=download');
    expect(response.status).toBe(200);
    expectMeasurementHeaders(response);
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('answers 400 naming the parameter when bytes is missing', async () => {
    const response = await call('/__down');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: 'query parameter bytes is required',
      detail: { example: '?bytes=100000' },
    });
  });

  it.each(['-5', '2.5', 'lots'])('answers 400 for bytes=%s', async (raw) => {
    const response = await call(`/__down?bytes=${raw}`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ error: 'bytes must be a non-negative integer', detail: { bytes: raw } });
  });

  it('answers 400 with the cap when bytes is above it, however many digits it has', async () => {
    for (const raw of [String(maxDownloadBytes + 1), '99999999999999999999']) {
      const response = await call(`/__down?bytes=${raw}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: `bytes must be at most ${maxDownloadBytes}`,
        detail: { maxBytes: maxDownloadBytes },
      });
    }
  });

  it('answers 400 when bytes is given twice, on both endpoints', async () => {
    const down = await call('/__down?bytes=10&bytes=20');
    expect(down.status).toBe(400);
    expect(await down.json()).toMatchObject({ error: 'give query parameter bytes once' });
    const up = await call('/__up?bytes=10&bytes=20', { method: 'POST', body: 'x'.repeat(10) });
    expect(up.status).toBe(400);
    expect(await up.json()).toMatchObject({ error: 'give query parameter bytes once' });
  });

  it('serves the largest default step of @cloudflare/speedtest (250 MB) instead of refusing it', async () => {
    const response = await call('/__down?bytes=250000000');
    expect(response.status).toBe(200);
    await response.body?.cancel();
  });

  it('answers 405 with Allow for POST', async () => {
    const response = await call('/__down?bytes=10', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await response.json()).toEqual({ error: 'use GET or HEAD', detail: { method: 'POST' } });
  });
});

describe('POST /__up', () => {
  it('counts the body and reports the server-side byte count in JSON and a header', async () => {
    const response = await call('/__up?bytes=300000', { method: 'POST', body: new Uint8Array(300000) });
    expect(response.status).toBe(200);
    expectMeasurementHeaders(response);
    expect(response.headers.get('x-received-bytes')).toBe('300000');
    expect(await response.json()).toMatchObject({ receivedBytes: 300000, declaredBytes: 300000 });
  });

  it('answers when the body arrived: a timeline from [0, 0] to the bytes received, never going back', async () => {
    const response = await call('/__up?bytes=300000', { method: 'POST', body: new Uint8Array(300000) });
    const receipt = (await response.json()) as { receiveTimeline: [number, number][]; receiveDurationMs: number };
    const timeline = receipt.receiveTimeline;
    expect(timeline[0]).toEqual([0, 0]);
    expect(timeline.at(-1)?.[1]).toBe(300000);
    for (let index = 1; index < timeline.length; index++) {
      const [timeMs, bytes] = timeline[index] as [number, number];
      const [previousMs, previousBytes] = timeline[index - 1] as [number, number];
      expect(timeMs).toBeGreaterThanOrEqual(previousMs);
      expect(bytes).toBeGreaterThanOrEqual(previousBytes);
    }
    expect(timeline.at(-1)?.[0]).toBeLessThanOrEqual(receipt.receiveDurationMs);
  });

  it('accepts a text body without a bytes parameter, as @cloudflare/speedtest sends it', async () => {
    const response = await call('/__up', { method: 'POST', body: '0'.repeat(1000) });
    expect(await response.json()).toMatchObject({ receivedBytes: 1000, declaredBytes: null });
  });

  it('answers 413 when the declared size is over the cap', async () => {
    const response = await call(`/__up?bytes=${maxUploadBytes + 1}`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ detail: { maxBytes: maxUploadBytes } });
  });

  it('answers 413 when Content-Length is over the cap, before reading the body', async () => {
    const body = new ReadableStream({ start: (controller) => controller.close() });
    const request = new Request(`${base}/__up`, {
      method: 'POST',
      body,
      headers: { 'content-length': String(maxUploadBytes + 1) },
    });
    const response = await exports.default.fetch(request);
    expect(response.status).toBe(413);
  });

  it('answers 400 for a malformed bytes parameter', async () => {
    const response = await call('/__up?bytes=-1', { method: 'POST', body: 'x' });
    expect(response.status).toBe(400);
  });

  it('answers 405 for GET', async () => {
    const response = await call('/__up');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST, OPTIONS');
  });
});

describe('GET /__up-ws', () => {
  /** Opens the socket the engine uploads over; the test's end of the pair. */
  async function openUploadSocket(): Promise<WebSocket> {
    const response = await call('/__up-ws', { headers: { upgrade: 'websocket' } });
    expect(response.status).toBe(101);
    const socket = response.webSocket;
    if (!socket) throw new Error('no WebSocket in the 101 answer');
    socket.accept();
    return socket;
  }

  /** Reports and the close event, until the socket closes or `untilBytes` are reported. */
  function collect(socket: WebSocket, untilBytes = Number.POSITIVE_INFINITY) {
    const reports: { bytes: number; ms: number }[] = [];
    const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener('close', resolve));
    const reached = new Promise<void>((resolve) => {
      socket.addEventListener('message', (event) => {
        reports.push(JSON.parse(String(event.data)));
        if ((reports.at(-1)?.bytes ?? 0) >= untilBytes) resolve();
      });
    });
    return { reports, closed, reached };
  }

  it('counts binary messages and reports the bytes read so far, never going back', async () => {
    const socket = await openUploadSocket();
    const { reports, reached } = collect(socket, 3 * 256 * 1024 + 1000);
    for (let i = 0; i < 3; i++) socket.send(new Uint8Array(256 * 1024));
    socket.send(new Uint8Array(1000));
    await reached;
    socket.close(1000);
    expect(reports.at(-1)?.bytes).toBe(3 * 256 * 1024 + 1000);
    for (let i = 1; i < reports.length; i++) {
      expect(reports[i]?.bytes).toBeGreaterThan(reports[i - 1]?.bytes ?? 0);
      expect(reports[i]?.ms).toBeGreaterThanOrEqual(reports[i - 1]?.ms ?? 0);
    }
  });

  it('closes with 1003 and a reason on a text message', async () => {
    const socket = await openUploadSocket();
    const { closed } = collect(socket);
    socket.send('not bytes');
    const event = await closed;
    expect(event.code).toBe(1003);
    expect(event.reason).toContain('binary');
  });

  it('answers 426 with a JSON error and Upgrade when asked without a WebSocket upgrade', async () => {
    const response = await call('/__up-ws');
    expect(response.status).toBe(426);
    expect(response.headers.get('upgrade')).toBe('websocket');
    expect(await response.json()).toMatchObject({ error: expect.stringContaining('WebSocket') });
  });

  it('answers 405 for POST', async () => {
    const response = await call('/__up-ws', { method: 'POST', body: 'x' });
    expect(response.status).toBe(405);
  });
});

describe('OPTIONS preflight', () => {
  it.each([
    ['/__down', 'GET, HEAD, OPTIONS'],
    ['/__up', 'POST, OPTIONS'],
    ['/meta', 'GET, HEAD, OPTIONS'],
  ])('answers %s with the allowed methods and any origin', async (path, methods) => {
    const response = await call(path, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toBe(methods);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('GET /meta', () => {
  it('answers JSON with every field, null where the local runtime knows nothing', async () => {
    const response = await call('/meta');
    expect(response.status).toBe(200);
    const meta = await response.json<Record<string, unknown>>();
    expect(Object.keys(meta).sort()).toEqual(
      [
        'asOrganization',
        'asn',
        'city',
        'clientIp',
        'clientTcpRttMs',
        'colo',
        'country',
        'httpProtocol',
        'region',
        'tlsVersion',
      ].sort(),
    );
  });

  it('reads the client IP from the header and location from request.cf', () => {
    const meta = connectionMeta(new Headers({ 'cf-connecting-ip': '203.0.113.7' }), {
      colo: 'AMS',
      country: 'NL',
      city: 'Amsterdam',
      asn: 64496,
      asOrganization: 'Example Net',
      httpProtocol: 'HTTP/2',
      tlsVersion: 'TLSv1.3',
      clientTcpRtt: 23,
    });
    expect(meta).toMatchObject({
      clientIp: '203.0.113.7',
      colo: 'AMS',
      country: 'NL',
      asn: 64496,
      asOrganization: 'Example Net',
      httpProtocol: 'HTTP/2',
      tlsVersion: 'TLSv1.3',
      clientTcpRttMs: 23,
    });
    expect(meta.region).toBeNull();
  });

  it("reports no location for a loopback client, whose request.cf is wrangler dev's placeholder", () => {
    const placeholder = {
      colo: 'DFW',
      country: 'US',
      city: 'Austin',
      asn: 395747,
      asOrganization: 'Placeholder',
      httpProtocol: 'HTTP/1.1',
      tlsVersion: 'TLSv1.3',
      clientTcpRtt: 1,
    };
    for (const ip of ['127.0.0.1', '::1']) {
      expect(connectionMeta(new Headers({ 'cf-connecting-ip': ip }), placeholder)).toMatchObject({
        clientIp: ip,
        colo: null,
        country: null,
        city: null,
        asn: null,
        asOrganization: null,
        tlsVersion: null,
        clientTcpRttMs: null,
        httpProtocol: 'HTTP/1.1',
      });
    }
  });

  it('ignores values of the wrong type instead of echoing them', () => {
    expect(connectionMeta(new Headers(), { asn: '64496', colo: 42 })).toMatchObject({ asn: null, colo: null });
  });
});

describe('other paths', () => {
  it('still reach the static assets', async () => {
    const response = await call('/');
    expect(response.status).toBe(200);
  });
});

describe('hostile and broken clients', () => {
  it('answers 405 with no-store, so no cache keeps it for the URL', async () => {
    for (const method of ['PUT', 'DELETE', 'PATCH']) {
      const response = await call('/__down?bytes=1', { method });
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers an upload whose body breaks off with a 400 JSON naming what arrived, not an exception', async () => {
    let chunks = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        chunks += 1;
        if (chunks > 3) controller.error(new Error('connection reset'));
        else controller.enqueue(new Uint8Array(1000));
      },
    });
    const response = await handleUp(new Request(`${base}/__up`, { method: 'POST', body }));
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store, no-transform');
    expect(await response.json()).toMatchObject({ detail: { receivedBytes: 3000 } });
  });

  it('closes an upload socket that goes quiet once its time is up (1008), not only when a message comes', async () => {
    const response = handleUpWs(new Request(`${base}/__up-ws`, { headers: { upgrade: 'websocket' } }), undefined, {
      maxBytes: 1000,
      maxMs: 50,
    });
    const socket = response.webSocket;
    if (!socket) throw new Error('no WebSocket in the 101 answer');
    socket.accept();
    const closed = new Promise<CloseEvent>((resolve) => socket.addEventListener('close', resolve));
    const event = await closed;
    expect(event.code).toBe(1008);
    expect(event.reason).toContain('50 ms');
  });
});
