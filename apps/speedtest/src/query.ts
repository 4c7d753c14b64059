import type { SpeedTestOptions } from '@speedkit/speedtest';

/** Page options from the query string; documented in apps/speedtest/README.md. */
export interface PageOptions {
  autostart: boolean;
  engine: Partial<SpeedTestOptions>;
}

const numberParams: Record<string, keyof SpeedTestOptions> = {
  bytes: 'maxBytesPerDirection',
  timeMs: 'maxDurationPerDirectionMs',
  streams: 'maxStreams',
  pings: 'idlePings',
  intervalMs: 'intervalMs',
  stableIntervals: 'stableIntervals',
  tolerance: 'stableTolerance',
  targetMs: 'targetRequestMs',
  maxDownBytes: 'maxDownloadRequestBytes',
  maxUpBytes: 'maxUploadRequestBytes',
  minBytes: 'minRequestBytes',
  pingIntervalMs: 'loadedPingIntervalMs',
};

/** Reads the query; unknown or malformed values are ignored so the engine's defaults apply. */
export function pageOptions(search: string): PageOptions {
  const params = new URLSearchParams(search);
  const engine: Partial<SpeedTestOptions> = {};
  for (const [param, key] of Object.entries(numberParams)) {
    const raw = params.get(param);
    const value = raw === null || raw.trim() === '' ? Number.NaN : Number(raw);
    if (Number.isFinite(value) && value >= 0) Object.assign(engine, { [key]: value });
  }
  const server = params.get('server');
  if (server && /^https?:\/\//.test(server)) engine.serverUrl = server;
  const directions = params.get('directions');
  if (directions) {
    const chosen = directions.split(',').filter((d): d is 'download' | 'upload' => d === 'download' || d === 'upload');
    if (chosen.length > 0) engine.directions = chosen;
  }
  if (params.get('hidden') === 'run') engine.pauseWhenHidden = false;
  const upload = params.get('upload');
  if (upload === 'http' || upload === 'websocket') engine.uploadTransport = upload;
  return { autostart: params.get('autostart') !== '0', engine };
}
