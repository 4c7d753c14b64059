import type { SpeedTestOptions } from './types';

/**
 * Defaults chosen for real links up to ~1 Gbit/s: four 250 ms intervals within 5% is ndt7's idea of "stable"; the
 * byte budget is a third of the anchor's worst case (≈ 969 MB down) and still gives a gigabit link ~2.4 s; 12 s per
 * direction bounds a slow, jittery link.
 */
export const defaultOptions: SpeedTestOptions = {
  serverUrl: '',
  idlePings: 20,
  maxStreams: 4,
  intervalMs: 250,
  stableIntervals: 4,
  stableTolerance: 0.05,
  maxBytesPerDirection: 300_000_000,
  maxDurationPerDirectionMs: 12_000,
  minRoundTripsPerDirection: 30,
  targetRequestMs: 500,
  minRequestBytes: 100_000,
  maxDownloadRequestBytes: 100_000_000,
  maxUploadRequestBytes: 25_000_000,
  loadedPingIntervalMs: 200,
  pingTimeoutMs: 10_000,
  directions: ['download', 'upload'],
  pauseWhenHidden: true,
  packetLoss: true,
  lossPackets: 3000,
  uploadTransport: 'auto',
};

type NumberKey = {
  [K in keyof SpeedTestOptions]: SpeedTestOptions[K] extends number ? K : never;
}[keyof SpeedTestOptions];

/**
 * What each number must be, and its unit for the message. Counts and byte sizes are whole numbers; zero budgets,
 * zero pings or a zero tolerance would measure nothing (a zero budget used to divide the progress by zero).
 */
/**
 * Durations are timer delays: above 2^31 − 1 ms a browser's (and Node's) setTimeout fires at once, so a longer
 * budget would end its phase immediately instead of never.
 */
const timerLimitMs = 2 ** 31;

const numberRules: Record<NumberKey, { unit: string; min: number; above?: boolean; max?: number; whole?: boolean }> = {
  idlePings: { unit: 'pings', min: 1, whole: true },
  maxStreams: { unit: 'streams', min: 1, whole: true },
  // Shorter intervals hold too few body chunks to be a rate.
  intervalMs: { unit: 'ms', min: 20, max: timerLimitMs },
  stableIntervals: { unit: 'intervals', min: 2, whole: true },
  stableTolerance: { unit: '(fraction, 0.05 = 5 %)', min: 0, above: true, max: 1 },
  maxBytesPerDirection: { unit: 'bytes', min: 1, whole: true },
  maxDurationPerDirectionMs: { unit: 'ms', min: 0, above: true, max: timerLimitMs },
  minRoundTripsPerDirection: { unit: 'round trips', min: 0, whole: true },
  targetRequestMs: { unit: 'ms', min: 0, above: true, max: timerLimitMs },
  minRequestBytes: { unit: 'bytes', min: 1, whole: true },
  maxDownloadRequestBytes: { unit: 'bytes', min: 1, whole: true },
  maxUploadRequestBytes: { unit: 'bytes', min: 1, whole: true },
  loadedPingIntervalMs: { unit: 'ms', min: 0, max: timerLimitMs },
  pingTimeoutMs: { unit: 'ms', min: 0, above: true, max: timerLimitMs },
  lossPackets: { unit: 'packets', min: 1, whole: true },
};

const directionNames = ['download', 'upload'] as const;
const transports = ['auto', 'http', 'websocket'] as const;

/**
 * Defaults overlaid with the caller's options (`undefined` = the default). Anything else that is not a valid value
 * throws a TypeError or RangeError naming the option: a typo or a wrong type from plain JavaScript must not run a
 * different test than the one asked for. The server URL loses its trailing slashes; directions run in their fixed
 * order (download first: the upload's transport and the idle latency depend on it).
 */
export function resolveOptions(options: Partial<SpeedTestOptions> = {}): SpeedTestOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError(`SpeedTest options must be an object; got ${describe(options)}`);
  }
  const resolved: SpeedTestOptions = { ...defaultOptions };
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(defaultOptions, key)) throw new TypeError(`unknown SpeedTest option "${key}"`);
    if (value === undefined) continue;
    Object.assign(resolved, { [key]: checked(key as keyof SpeedTestOptions, value) });
  }
  return resolved;
}

function checked(key: keyof SpeedTestOptions, value: unknown): unknown {
  if (key in numberRules) return checkedNumber(key as NumberKey, value);
  if (key === 'serverUrl') return checkedServerUrl(value);
  if (key === 'directions') return checkedDirections(value);
  if (key === 'uploadTransport') {
    if (transports.includes(value as (typeof transports)[number])) return value;
    throw new TypeError(
      `SpeedTest option uploadTransport must be 'auto', 'http' or 'websocket'; got ${describe(value)}`,
    );
  }
  // pauseWhenHidden, packetLoss: a string such as 'false' would read as true.
  if (typeof value !== 'boolean')
    throw new TypeError(`SpeedTest option ${key} must be true or false; got ${describe(value)}`);
  return value;
}

function checkedNumber(key: NumberKey, value: unknown): number {
  const rule = numberRules[key];
  const wanted = [
    rule.whole ? 'a whole number' : 'a number',
    rule.above ? `> ${rule.min}` : `≥ ${rule.min}`,
    rule.max !== undefined ? `and < ${rule.max}` : '',
    rule.unit,
  ]
    .filter(Boolean)
    .join(' ');
  if (typeof value !== 'number')
    throw new TypeError(`SpeedTest option ${key} must be ${wanted}; got ${describe(value)}`);
  const valid =
    Number.isFinite(value) &&
    (rule.above ? value > rule.min : value >= rule.min) &&
    (rule.max === undefined || value < rule.max) &&
    (!rule.whole || Number.isInteger(value));
  if (!valid) throw new RangeError(`SpeedTest option ${key} must be ${wanted}; got ${value}`);
  return value;
}

/** '' (this page's origin), an absolute http(s) URL, or a path on this page's origin ('/speed'). */
function checkedServerUrl(value: unknown): string {
  const wanted = "'' (this page's origin), an http(s) URL or a path starting with /";
  if (typeof value !== 'string')
    throw new TypeError(`SpeedTest option serverUrl must be ${wanted}; got ${describe(value)}`);
  const trimmed = value.replace(/\/+$/, '');
  if (trimmed === '') return trimmed;
  // Endpoint paths are appended to it: a query or fragment would swallow them, a bare host name would be a path.
  const parsed = URL.canParse(trimmed) ? new URL(trimmed) : null;
  const absolute = parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:');
  const path = trimmed.startsWith('/') && !trimmed.startsWith('//');
  if ((!absolute && !path) || /[?#]/.test(trimmed)) {
    throw new TypeError(`SpeedTest option serverUrl must be ${wanted}, without a query or fragment; got "${value}"`);
  }
  return trimmed;
}

function checkedDirections(value: unknown): SpeedTestOptions['directions'] {
  const known = (name: unknown) => directionNames.includes(name as (typeof directionNames)[number]);
  if (!Array.isArray(value) || !value.every(known)) {
    throw new TypeError(
      `SpeedTest option directions must be an array of 'download' and/or 'upload' (or []); got ${describe(value)}`,
    );
  }
  return directionNames.filter((name) => value.includes(name));
}

function describe(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (Array.isArray(value)) return `[${value.map(describe).join(', ')}]`;
  return value === null ? 'null' : typeof value === 'object' ? 'an object' : String(value);
}
