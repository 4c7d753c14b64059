import { resolveOptions, type SpeedTestResult } from '@speedkit/speedtest';
import { describe, expect, it } from 'vitest';
import { comparisonRows } from '../src/comparison';
import { explainFailure } from '../src/failure';
import { formatBitsPerSecondRange, formatMsRange, streamCount, tickLabel } from '../src/format';
import { addToHistory, type HistoryEntry, maxHistoryEntries, parseHistory } from '../src/history';
import { when } from '../src/history-view';
import { describeConnection } from '../src/meta';
import { autostartDecision, dataNotice, lossNotice, maxTestBytes, roundTripText } from '../src/notice';

describe('formatBitsPerSecondRange', () => {
  it('writes both ends in the unit of the figure, never a negative kbps', () => {
    expect(formatBitsPerSecondRange(0.94e9, 1.31e9, 1.12e9)).toBe('0.94 – 1.31 Gbps');
    expect(formatBitsPerSecondRange(0.32e9, 3.95e9, 1.12e9)).toBe('0.32 – 3.95 Gbps');
    expect(formatBitsPerSecondRange(412.34e6, 480.1e6, 450e6)).toBe('412.3 – 480.1 Mbps');
  });

  it('keeps two decimals for small values in a larger unit, so the low end does not read 0', () => {
    expect(formatBitsPerSecondRange(4.2e6, 31e6, 19.6e6)).toBe('4.20 – 31.0 Mbps');
  });

  it('says there is no interval from a single sample', () => {
    expect(formatBitsPerSecondRange(0, Number.POSITIVE_INFINITY, 5e6)).toBe('none from a single interval');
  });

  it('formats latency intervals in ms', () => {
    expect(formatMsRange(5, 16)).toBe('5.0 – 16.0 ms');
    expect(formatMsRange(1.2, 3.4)).toBe('1.20 – 3.40 ms');
  });
});

describe('streamCount', () => {
  it('says "1 stream", not "1 streams"', () => {
    expect(streamCount(1)).toBe('1 stream');
    expect(streamCount(4)).toBe('4 streams');
  });
});

describe('explainFailure', () => {
  it('names the request, the server and what to check for a network error', () => {
    const text = explainFailure('Failed to fetch', 'latency', '', 'http://localhost:8787');
    expect(text).toContain('GET /__down?bytes=0 (latency probe) on http://localhost:8787');
    expect(text).toContain('Check your connection');
    expect(text).toContain('(Browser said: Failed to fetch)');
  });

  it('asks about cross-origin access for another server', () => {
    expect(explainFailure('Failed to fetch', 'upload', 'https://speed.example', 'http://localhost:8787')).toContain(
      'Access-Control-Allow-Origin',
    );
  });

  it('reads an HTTP status from the message', () => {
    expect(explainFailure('503 from /__up', 'upload', '', 'http://x')).toContain('answered 503');
    expect(explainFailure('404 from /__down', 'download', '', 'http://x')).toContain('answered 404');
  });
});

describe('autostart and the data notice', () => {
  const options = resolveOptions({});

  it('does not start by itself when the user saves data or the query says so', () => {
    expect(autostartDecision(true, true)).toBe('save-data');
    expect(autostartDecision(false, false)).toBe('off-by-query');
    expect(autostartDecision(true, undefined)).toBe('start');
  });

  it('states the byte budget of both directions before anything moves', () => {
    expect(maxTestBytes(options)).toBe(600_000_000);
    expect(dataNotice('start', options)).toContain(
      'up to 600.0 MB (300.0 MB per direction, 12 s at most each, up to 60 s where a round trip takes over 400 ms)',
    );
    // With the round-trip floor off, the time budget is the whole story.
    expect(dataNotice('start', { ...options, minRoundTripsPerDirection: 0 })).toContain(
      '(300.0 MB per direction, 12 s at most each)',
    );
    expect(dataNotice('save-data', options)).toContain('Data saver is on');
  });

  it("names a short budget's round-trip threshold in ms, not as '0 s'", () => {
    expect(dataNotice('start', { ...options, maxDurationPerDirectionMs: 1000 })).toContain(
      '1 s at most each, up to 5 s where a round trip takes over 33 ms)',
    );
    expect(roundTripText(999.4)).toBe('999 ms');
    expect(roundTripText(999.6)).toBe('1 s');
    expect(roundTripText(1000)).toBe('1 s');
    expect(roundTripText(1540)).toBe('1.5 s');
  });

  it('says what the packet-loss phase sends, and nothing about it when it is off', () => {
    expect(lossNotice(options)).toBe(
      ' Then, if this server has a TURN relay, a packet-loss check sends up to 3000 numbered 100-byte packets each way through it over WebRTC (fewer on a slow link; at most about 1.2 MB, 15 s).',
    );
    for (const decision of ['start', 'off-by-query', 'save-data'] as const) {
      expect(dataNotice(decision, options)).toContain('packet-loss check sends up to 3000');
      expect(dataNotice(decision, { ...options, packetLoss: false })).not.toContain('packet');
    }
  });
});

const entry = (startedAt: string): HistoryEntry => ({
  startedAt,
  downloadBitsPerSecond: 1e8,
  uploadBitsPerSecond: 1e7,
  idleLatencyMs: 10,
  jitterMs: 1,
  loadedLatencyMs: 30,
  rpm: 2000,
  bytes: 1e8,
});

describe('tickLabel', () => {
  it('writes chart ticks as plain numbers without float noise, and passes category labels through', () => {
    expect(tickLabel(0)).toBe('0');
    expect(tickLabel(0.1 + 0.2)).toBe('0.3');
    expect(tickLabel(1500)).toBe('1500');
    expect(tickLabel(2.5)).toBe('2.5');
    expect(tickLabel('1 MB+')).toBe('1 MB+');
  });
});

describe('when (the past-runs date column)', () => {
  it('writes local date and time in ISO order without Intl, and passes unreadable dates through', () => {
    const local = new Date(2026, 10, 4, 5, 7, 30);
    expect(when(local.toISOString())).toBe('2026-11-04 05:07');
    expect(when('not a date')).toBe('not a date');
  });
});

describe('history', () => {
  it('keeps the newest first and at most the limit', () => {
    let history: HistoryEntry[] = [];
    for (let index = 0; index < maxHistoryEntries + 5; index++) history = addToHistory(history, entry(`t${index}`));
    expect(history).toHaveLength(maxHistoryEntries);
    expect(history[0]?.startedAt).toBe(`t${maxHistoryEntries + 4}`);
  });

  it('reads malformed storage as no history', () => {
    expect(parseHistory('{not json')).toEqual([]);
    expect(parseHistory('{"a":1}')).toEqual([]);
    expect(parseHistory(JSON.stringify([entry('x'), { nope: true }]))).toEqual([entry('x')]);
  });
});

describe('describeConnection', () => {
  it('names the data centre, the client network and the protocol when deployed', () => {
    expect(
      describeConnection({
        colo: 'AMS',
        city: 'Amsterdam',
        country: 'NL',
        asn: 64496,
        asOrganization: 'Example Net',
        httpProtocol: 'HTTP/2',
        tlsVersion: 'TLSv1.3',
        clientTcpRttMs: 12,
      }),
    ).toBe(
      'Connection: server AMS (you: Amsterdam, NL) · network AS64496 Example Net · HTTP/2, TLSv1.3 · edge TCP RTT 12 ms',
    );
  });

  it('says the location is unknown locally instead of inventing one', () => {
    expect(describeConnection({ colo: null, asn: null, httpProtocol: 'HTTP/1.1', tlsVersion: null })).toBe(
      'Connection: server location unknown (local server) · HTTP/1.1',
    );
  });
});

describe('comparisonRows', () => {
  it('shows both engines in the same units, "running…" for one not finished', () => {
    const baseline = {
      summary: { download: 9.5e6, upload: 1.9e6, latency: 12.3, jitter: 1.5 },
      wallMs: 93_000,
      bytes: { download: 76e6, upload: 20e6 },
    };
    const rows = comparisonRows(baseline, null);
    expect(rows.find((row) => row.key === 'download')).toMatchObject({ baseline: '9.5 Mbps', ours: 'running…' });
    expect(rows.find((row) => row.key === 'bytes')?.baseline).toBe('96.0 MB');
    expect(rows.find((row) => row.key === 'loadedDown')?.baseline).toBe('—');
    const unmeasured = { ...baseline, summary: { ...baseline.summary, downLoadedLatency: 0 } };
    expect(comparisonRows(unmeasured, null).find((row) => row.key === 'loadedDown')?.baseline).toBe('—');
    const ours = {
      download: { bitsPerSecond: { value: 9.6e6 } },
      upload: null,
      latency: { idleMs: { value: 11 }, jitterMs: 1, downloadLoadedMs: null, uploadLoadedMs: null },
      totalBytes: { download: 5e6, upload: 1e6 },
      durationMs: 10_000,
    } as unknown as SpeedTestResult;
    expect(comparisonRows(baseline, ours).find((row) => row.key === 'download')?.ours).toBe('9.6 Mbps');
  });
});

describe('the notice in index.html', () => {
  it('is the default notice, so a default page never repaints it', async () => {
    const { readFile } = await import('node:fs/promises');
    const html = await readFile(new URL('../index.html', import.meta.url), 'utf8');
    expect(html).toContain(`<p id="notice-text">${dataNotice('start', resolveOptions({}))}</p>`);
  });
});
