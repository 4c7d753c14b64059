import { describe, expect, it } from 'vitest';
import { upstreamRequest } from '../../lib/http-forward.mjs';
import { processCpuTicks } from '../cpu-busy.mjs';
import { downstreamResponse, upgradeRequestHead } from '../h2-front-headers.mjs';

describe('upstreamRequest', () => {
  it('turns pseudo-headers into method and path, drops connection headers and names the upstream as Host', () => {
    const request = upstreamRequest(
      {
        ':method': 'POST',
        ':path': '/__up?measId=7',
        ':scheme': 'https',
        ':authority': '10.99.0.1:8943',
        'content-type': 'application/octet-stream',
        te: 'trailers',
        connection: 'keep-alive',
        cookie: 'a=1; b=2',
      },
      '10.99.0.1:8900',
    );
    expect(request).toEqual({
      method: 'POST',
      path: '/__up?measId=7',
      headers: { 'content-type': 'application/octet-stream', cookie: 'a=1; b=2', host: '10.99.0.1:8900' },
    });
  });

  it('defaults to GET / when the pseudo-headers are missing', () => {
    expect(upstreamRequest({}, 'upstream:1')).toEqual({ method: 'GET', path: '/', headers: { host: 'upstream:1' } });
  });
});

describe('downstreamResponse', () => {
  it("keeps the answer's status and headers but not HTTP/1.1's connection and chunked framing", () => {
    const head = downstreamResponse(200, {
      'content-type': 'application/octet-stream',
      'server-timing': 'app;dur=0.2',
      'transfer-encoding': 'chunked',
      connection: 'keep-alive',
      'keep-alive': 'timeout=5',
      'set-cookie': ['x=1', 'y=2'],
    });
    expect(head).toEqual({
      ':status': 200,
      'content-type': 'application/octet-stream',
      'server-timing': 'app;dur=0.2',
      'set-cookie': ['x=1', 'y=2'],
    });
  });

  it('answers 502 when the upstream gave no status', () => {
    expect(downstreamResponse(undefined, {})).toEqual({ ':status': 502 });
  });
});

describe('processCpuTicks', () => {
  it("adds utime and stime (fields 14 and 15), counting past a command name's spaces and parentheses", () => {
    const line = '4242 (node (h2) front) S 1 4242 4242 0 -1 4194560 1000 0 0 0 731 129 0 0 20 0 11 0 5000 1 1';
    expect(processCpuTicks(line)).toBe(860);
  });

  it('is NaN for a line that does not parse', () => {
    expect(processCpuTicks('garbage')).toBeNaN();
  });
});

describe('upgradeRequestHead', () => {
  it("writes the browser's request line and headers in order, with Host naming the upstream", () => {
    const head = upgradeRequestHead(
      'GET',
      '/__up-ws?measId=3',
      ['Host', '10.99.0.1:8943', 'Connection', 'Upgrade', 'Upgrade', 'websocket', 'Sec-WebSocket-Key', 'abc=='],
      '10.99.0.1:8900',
    );
    expect(head).toBe(
      'GET /__up-ws?measId=3 HTTP/1.1\r\nHost: 10.99.0.1:8900\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Sec-WebSocket-Key: abc==\r\n\r\n',
    );
  });
});
