import { defaultOptions, type SpeedTestOptions } from '@speedkit/speedtest';

/** Page options from the query string; documented in apps/speedtest/README.md. */
export interface PageOptions {
  autostart: boolean;
  engine: Partial<SpeedTestOptions>;
  /**
   * One sentence per parameter that was malformed or out of range, naming it and what was used instead; the page
   * shows them, so a typo never silently runs a different test than the one asked for.
   */
  problems: string[];
}

/** A numeric parameter: the engine option it sets, its unit (for the notice), its allowed range. */
interface NumberParam {
  key: keyof SpeedTestOptions;
  unit: string;
  min: number;
  max?: number;
  integer?: boolean;
}

/**
 * Minimums are what still measures something: a budget of at least one smallest request, a second to fill four
 * 250 ms intervals, two idle pings for a jitter, two intervals to compare.
 */
/** Timer delays above this (2^31 − 1 ms) fire at once in browsers; the engine refuses them. */
const maxTimerMs = 2 ** 31 - 1;

export const numberParams: Record<string, NumberParam> = {
  bytes: { key: 'maxBytesPerDirection', unit: 'bytes', min: 100_000, integer: true },
  timeMs: { key: 'maxDurationPerDirectionMs', unit: 'ms', min: 1000, max: maxTimerMs },
  streams: { key: 'maxStreams', unit: 'streams', min: 1, max: 16, integer: true },
  pings: { key: 'idlePings', unit: 'pings', min: 2, max: 1000, integer: true },
  intervalMs: { key: 'intervalMs', unit: 'ms', min: 20, max: maxTimerMs },
  stableIntervals: { key: 'stableIntervals', unit: 'intervals', min: 2, max: 100, integer: true },
  tolerance: { key: 'stableTolerance', unit: '(fraction)', min: 0.001, max: 0.5 },
  targetMs: { key: 'targetRequestMs', unit: 'ms', min: 10, max: maxTimerMs },
  maxDownBytes: { key: 'maxDownloadRequestBytes', unit: 'bytes', min: 1000, integer: true },
  maxUpBytes: { key: 'maxUploadRequestBytes', unit: 'bytes', min: 1000, integer: true },
  minBytes: { key: 'minRequestBytes', unit: 'bytes', min: 1000, integer: true },
  pingIntervalMs: { key: 'loadedPingIntervalMs', unit: 'ms', min: 10, max: maxTimerMs },
};

const booleanWords: Record<string, boolean> = { '1': true, true: true, yes: true, '0': false, false: false, no: false };

/** Pure: a boolean parameter (`0/1/true/false/yes/no`, any case); null when absent or malformed. */
export function parseBoolean(raw: string | null): boolean | null {
  if (raw === null) return null;
  return booleanWords[raw.trim().toLowerCase()] ?? null;
}

/** Pure: one numeric parameter checked against its range; `problem` says what was used instead. */
export function parseNumberParam(
  name: string,
  raw: string,
  spec: NumberParam,
): { value: number | null; problem: string | null } {
  const fallback = defaultOptions[spec.key] as number;
  const value = raw.trim() === '' ? Number.NaN : Number(raw);
  if (!Number.isFinite(value)) {
    return { value: null, problem: `${name}=${raw} is not a number: used the default, ${fallback} ${spec.unit}.` };
  }
  const whole = spec.integer ? Math.round(value) : value;
  const clamped = Math.min(spec.max ?? Number.POSITIVE_INFINITY, Math.max(spec.min, whole));
  if (clamped !== value) {
    const why =
      value < spec.min
        ? `is below the minimum of ${spec.min} ${spec.unit}`
        : spec.max !== undefined && value > spec.max
          ? `is above the maximum of ${spec.max} ${spec.unit}`
          : 'is not a whole number';
    return { value: clamped, problem: `${name}=${raw} ${why}: used ${clamped} ${spec.unit}.` };
  }
  return { value, problem: null };
}

/** Reads the query: every parameter that is malformed or out of range is named in `problems`. */
export function pageOptions(search: string): PageOptions {
  const params = new URLSearchParams(search);
  const engine: Partial<SpeedTestOptions> = {};
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(numberParams)) {
    const raw = params.get(name);
    if (raw === null) continue;
    const { value, problem } = parseNumberParam(name, raw, spec);
    if (value !== null) Object.assign(engine, { [spec.key]: value });
    if (problem) problems.push(problem);
  }
  const server = params.get('server');
  if (server !== null) {
    if (/^https?:\/\/[^/\s]+/.test(server) && URL.canParse(server)) engine.serverUrl = server;
    else problems.push(`server=${server} is not an http(s) URL: used this page's server.`);
  }
  const directions = params.get('directions');
  if (directions !== null) {
    const names = directions.split(',').map((name) => name.trim());
    const chosen = names.filter((d): d is 'download' | 'upload' => d === 'download' || d === 'upload');
    const unknown = names.filter((name) => name !== 'download' && name !== 'upload');
    if (chosen.length > 0) engine.directions = [...new Set(chosen)];
    if (unknown.length > 0 || chosen.length === 0) {
      const used = chosen.length > 0 ? [...new Set(chosen)].join(',') : 'download,upload';
      problems.push(`directions=${directions}: only download and upload are known: used ${used}.`);
    }
  }
  const hidden = params.get('hidden');
  if (hidden === 'run') engine.pauseWhenHidden = false;
  else if (hidden !== null)
    problems.push(`hidden=${hidden}: only hidden=run is known: the test pauses in a hidden tab.`);
  const upload = params.get('upload');
  if (upload === 'http' || upload === 'websocket') engine.uploadTransport = upload;
  else if (upload !== null && upload !== 'auto') {
    problems.push(`upload=${upload}: only http, websocket or auto are known: used auto.`);
  }
  const autostartRaw = params.get('autostart');
  const autostart = parseBoolean(autostartRaw);
  if (autostartRaw !== null && autostart === null) {
    problems.push(
      `autostart=${autostartRaw} is not one of 0, 1, true, false, yes, no: used the default, start on open.`,
    );
  }
  return { autostart: autostart ?? true, engine, problems };
}
