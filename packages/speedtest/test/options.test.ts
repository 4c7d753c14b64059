import { describe, expect, it } from 'vitest';
import { SpeedTest } from '../src/engine';
import { defaultOptions, resolveOptions } from '../src/options';
import { serverEndpoint } from '../src/probe';

// What a caller from plain JavaScript can pass: each invalid value is an error naming the option, never a silent
// default (the test that runs would not be the one asked for).
const invalid = (options: object) => () => resolveOptions(options);

describe('resolveOptions', () => {
  it('overlays the given options on the defaults; undefined keeps the default', () => {
    const options = resolveOptions({ maxStreams: 8, intervalMs: undefined, directions: ['upload'] });
    expect(options).toEqual({ ...defaultOptions, maxStreams: 8, directions: ['upload'] });
  });

  it('trims trailing slashes from the server URL and accepts a path on the page origin', () => {
    expect(resolveOptions({ serverUrl: 'http://x.test/' }).serverUrl).toBe('http://x.test');
    expect(resolveOptions({ serverUrl: 'https://x.test/speed//' }).serverUrl).toBe('https://x.test/speed');
    expect(resolveOptions({ serverUrl: '/speed' }).serverUrl).toBe('/speed');
  });

  it('refuses NaN, infinite, negative and zero numbers instead of falling back to the default', () => {
    expect(invalid({ maxStreams: Number.NaN })).toThrow(/maxStreams must be a whole number ≥ 1 streams; got NaN/);
    expect(invalid({ intervalMs: -3 })).toThrow(/intervalMs must be a number ≥ 20 and < 2147483648 ms; got -3/);
    expect(invalid({ maxBytesPerDirection: 0 })).toThrow(RangeError);
    expect(invalid({ maxDurationPerDirectionMs: 0 })).toThrow(
      /maxDurationPerDirectionMs must be a number > 0 and < 2147483648 ms/,
    );
    expect(invalid({ maxDurationPerDirectionMs: Number.POSITIVE_INFINITY })).toThrow(RangeError);
    // A timer delay past 2^31 − 1 ms fires at once: the phase would end immediately.
    expect(invalid({ maxDurationPerDirectionMs: 2 ** 31 })).toThrow(
      /maxDurationPerDirectionMs must be .*< 2147483648 ms/,
    );
    expect(invalid({ pingTimeoutMs: 1e12 })).toThrow(RangeError);
    expect(invalid({ idlePings: 0 })).toThrow(/idlePings/);
    // 0 round trips is allowed (the time budget is then a hard limit); a part of one or fewer than none is not.
    expect(resolveOptions({ minRoundTripsPerDirection: 0 }).minRoundTripsPerDirection).toBe(0);
    expect(invalid({ minRoundTripsPerDirection: 2.5 })).toThrow(
      /minRoundTripsPerDirection must be a whole number ≥ 0 round trips; got 2.5/,
    );
    expect(invalid({ minRoundTripsPerDirection: -1 })).toThrow(RangeError);
  });

  it('refuses values that measure nothing or break a phase: no loss packets, zero-byte requests, a 0 tolerance', () => {
    // 0 packets reported 0 % loss ("great"); a 0-byte first upload ended every upload stream at once.
    expect(invalid({ lossPackets: 0 })).toThrow(/lossPackets must be a whole number ≥ 1 packets/);
    expect(invalid({ minRequestBytes: 0 })).toThrow(/minRequestBytes/);
    expect(invalid({ maxUploadRequestBytes: 0 })).toThrow(/maxUploadRequestBytes/);
    expect(invalid({ stableTolerance: 0 })).toThrow(/stableTolerance must be a number > 0 and < 1/);
    expect(invalid({ stableTolerance: 5 })).toThrow(/stableTolerance/);
    expect(invalid({ stableIntervals: 1 })).toThrow(/stableIntervals must be a whole number ≥ 2/);
    expect(invalid({ maxStreams: 2.5 })).toThrow(/maxStreams/);
    expect(invalid({ pingTimeoutMs: 0 })).toThrow(/pingTimeoutMs/);
  });

  it('refuses wrong types: strings for numbers or booleans, a string for directions, unknown directions', () => {
    expect(invalid({ maxStreams: '4' })).toThrow(TypeError);
    expect(invalid({ packetLoss: 'no' })).toThrow(/packetLoss must be true or false; got "no"/);
    expect(invalid({ pauseWhenHidden: 0 })).toThrow(/pauseWhenHidden/);
    expect(invalid({ directions: 'upload' })).toThrow(/directions must be an array/);
    expect(invalid({ directions: ['download', 'dowload'] })).toThrow(/got \["download", "dowload"\]/);
    expect(invalid({ uploadTransport: 'ws' })).toThrow(/uploadTransport must be 'auto', 'http' or 'websocket'/);
  });

  it('refuses a server URL that is not one: a number, a bare host name, a query that would swallow the paths', () => {
    expect(invalid({ serverUrl: 42 })).toThrow(/serverUrl must be/);
    expect(invalid({ serverUrl: 'speed.example.com' })).toThrow(/got "speed\.example\.com"/);
    expect(invalid({ serverUrl: 'ftp://speed.example.com' })).toThrow(TypeError);
    expect(invalid({ serverUrl: 'https://speed.example.com/?key=1' })).toThrow(/without a query/);
  });

  it('refuses unknown options (a typo) and options that are not an object', () => {
    expect(invalid({ maxStream: 8 })).toThrow(/unknown SpeedTest option "maxStream"/);
    expect(() => resolveOptions(null as never)).toThrow(/options must be an object; got null/);
  });

  it('runs an empty plan (latency only) and the directions in their fixed order, download first', () => {
    expect(resolveOptions({ directions: [] }).directions).toEqual([]);
    expect(resolveOptions({ directions: ['upload', 'download', 'upload'] }).directions).toEqual(['download', 'upload']);
  });

  it('throws from the constructor, before anything runs', () => {
    expect(() => new SpeedTest({ maxStreams: -1 })).toThrow(RangeError);
  });
});

describe('serverEndpoint outside a page', () => {
  it("says that '' or a path needs a page, instead of a bare Invalid URL", () => {
    expect(() => serverEndpoint('', '/__down', undefined)).toThrow(/no page here.*absolute http\(s\) URL/);
    expect(() => serverEndpoint('/speed', '/__down', undefined)).toThrow(/"\/speed"/);
    expect(serverEndpoint('http://127.0.0.1:8787', '/__down', undefined).href).toBe('http://127.0.0.1:8787/__down');
  });
});
