import SpeedTestEngine, { type MeasurementConfig, type Results } from '@cloudflare/speedtest';
import { resolveOptions, SpeedTest, type SpeedTestResult } from '@speedkit/speedtest';
import { baselineNotice, type ComparisonRow, comparisonRows } from './comparison';
import { formatBytes } from './format';
import { pageOptions } from './query';

/**
 * Runs the unmodified @cloudflare/speedtest against this origin's endpoints (or `?server=`), for the e2e and the
 * accuracy testbed. Query: `measurements=<JSON list>` or `preset=small`; default = the library's own list minus the
 * packet-loss step (it needs Cloudflare's TURN server). Publishes `window.__baselineResult` when finished.
 */
export interface BaselineResult {
  summary: ReturnType<Results['getSummary']>;
  scores: ReturnType<Results['getScores']> | null;
  downloadPoints: ReturnType<Results['getDownloadBandwidthPoints']>;
  uploadPoints: ReturnType<Results['getUploadBandwidthPoints']>;
  latencyPoints: number[];
  downLoadedLatencyPoints: number[];
  upLoadedLatencyPoints: number[];
  /** Page-measured wall time from start to onFinish (ms). */
  wallMs: number;
  /** Payload bytes requested, from the resource-timing entries of /__down and /__up (bytes). */
  bytes: { download: number; upload: number };
  measurements: MeasurementConfig[];
}

declare global {
  interface Window {
    __baselineResult?: BaselineResult;
    __baselineError?: string;
    /** speedkit's run on the same page, after the baseline (absent with `compare=0`). */
    __speedkitResult?: SpeedTestResult;
    __speedkitError?: string;
  }
}

/** The library's default sequence without packetLoss (no TURN server here). */
const lat2: MeasurementConfig = { type: 'latency', numPackets: 2 };
const libraryDefault: MeasurementConfig[] = [
  lat2,
  { type: 'download', bytes: 1e5, count: 1, bypassMinDuration: true },
  { type: 'latency', numPackets: 20 },
  { type: 'download', bytes: 1e5, count: 9 },
  lat2,
  { type: 'download', bytes: 1e6, count: 8 },
  lat2,
  { type: 'upload', bytes: 1e5, count: 8 },
  lat2,
  { type: 'upload', bytes: 1e6, count: 6 },
  lat2,
  { type: 'download', bytes: 1e7, count: 6 },
  lat2,
  { type: 'upload', bytes: 1e7, count: 4 },
  lat2,
  { type: 'download', bytes: 2.5e7, count: 4 },
  lat2,
  { type: 'upload', bytes: 2.5e7, count: 4 },
  lat2,
  { type: 'download', bytes: 1e8, count: 3 },
  lat2,
  { type: 'upload', bytes: 5e7, count: 3 },
  lat2,
  { type: 'download', bytes: 2.5e8, count: 2 },
];

/** A few seconds on loopback: enough to prove the library runs unchanged against our endpoints. */
const small: MeasurementConfig[] = [
  { type: 'latency', numPackets: 5 },
  { type: 'download', bytes: 1e5, count: 3 },
  { type: 'download', bytes: 1e6, count: 3 },
  { type: 'upload', bytes: 1e5, count: 3 },
  { type: 'upload', bytes: 1e6, count: 3 },
];

function chooseMeasurements(params: URLSearchParams): MeasurementConfig[] {
  const custom = params.get('measurements');
  if (custom) return JSON.parse(custom) as MeasurementConfig[];
  return params.get('preset') === 'small' ? small : libraryDefault;
}

/** Payload bytes the library requested, from the `bytes` parameter of each finished request. The library clears the
 * resource-timing buffer as it goes, so entries are collected by an observer as they arrive. */
const requested = { download: 0, upload: 0 };
function countRequested(entries: PerformanceEntryList): void {
  for (const entry of entries) {
    const url = new URL(entry.name);
    const bytes = Number(url.searchParams.get('bytes') ?? 0) || 0;
    if (url.pathname === '/__down') requested.download += bytes;
    if (url.pathname === '/__up') requested.upload += bytes;
  }
}
const observer = new PerformanceObserver((list) => countRequested(list.getEntries()));
observer.observe({ type: 'resource', buffered: true });

const status = document.getElementById('status') as HTMLElement;
const announcer = document.getElementById('announcer') as HTMLElement;
const summaryElement = document.getElementById('summary') as HTMLElement;
const tableBody = document.querySelector('#comparison tbody') as HTMLElement;
const query = new URLSearchParams(location.search);
const compare = query.get('compare') !== '0';
let baselineDone: BaselineResult | null = null;
let oursDone: SpeedTestResult | null = null;

function say(text: string): void {
  status.textContent = text;
  announcer.textContent = text;
}

function renderTable(): void {
  const rows: ComparisonRow[] = comparisonRows(baselineDone, oursDone);
  tableBody.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement('tr');
      tr.dataset.figure = row.key;
      const th = document.createElement('th');
      th.scope = 'row';
      th.textContent = row.label;
      const theirs = document.createElement('td');
      theirs.textContent = row.baseline;
      const ours = document.createElement('td');
      ours.textContent = row.ours;
      tr.append(th, theirs, ours);
      return tr;
    }),
  );
}

/** speedkit's engine after the baseline, never at the same time: two tests sharing a link would each read low. */
async function runOurs(): Promise<void> {
  const options = pageOptions(location.search);
  say('@cloudflare/speedtest finished; now running speedkit…');
  const engine = new SpeedTest(options.engine);
  try {
    oursDone = await engine.start();
    window.__speedkitResult = oursDone;
    const bytes = formatBytes(oursDone.totalBytes.download + oursDone.totalBytes.upload);
    say(`Both finished. speedkit took ${(oursDone.durationMs / 1000).toFixed(1)} s and ${bytes}.`);
  } catch (error) {
    window.__speedkitError = error instanceof Error ? error.message : String(error);
    say(`speedkit failed: ${window.__speedkitError}`);
  }
  renderTable();
}

renderTable();

try {
  const params = new URLSearchParams(location.search);
  const server = (params.get('server') ?? location.origin).replace(/\/+$/, '');
  const measurements = chooseMeasurements(params);
  const noticeText = document.getElementById('notice-text');
  if (noticeText)
    noticeText.textContent = baselineNotice(measurements, resolveOptions(pageOptions(location.search).engine), compare);
  performance.setResourceTimingBufferSize(100_000);
  const startedMs = performance.now();
  const engine = new SpeedTestEngine({
    downloadApiUrl: `${server}/__down`,
    uploadApiUrl: `${server}/__up`,
    logAimApiUrl: null,
    logMeasurementApiUrl: null,
    measurements,
  });
  say('Running @cloudflare/speedtest…');
  engine.onFinish = (results) => {
    countRequested(observer.takeRecords());
    let scores: BaselineResult['scores'] = null;
    try {
      scores = results.getScores();
    } catch {
      // Scores need packet loss, which this setup does not measure.
    }
    const baseline: BaselineResult = {
      summary: results.getSummary(),
      scores,
      downloadPoints: results.getDownloadBandwidthPoints(),
      uploadPoints: results.getUploadBandwidthPoints(),
      latencyPoints: results.getUnloadedLatencyPoints(),
      downLoadedLatencyPoints: results.getDownLoadedLatencyPoints(),
      upLoadedLatencyPoints: results.getUpLoadedLatencyPoints(),
      wallMs: performance.now() - startedMs,
      bytes: { ...requested },
      measurements,
    };
    window.__baselineResult = baseline;
    baselineDone = baseline;
    say(`@cloudflare/speedtest finished in ${(baseline.wallMs / 1000).toFixed(1)} s.`);
    summaryElement.textContent = JSON.stringify(baseline.summary, null, 2);
    renderTable();
    if (compare) void runOurs();
  };
  engine.onError = (message) => {
    window.__baselineError = message;
    say(`@cloudflare/speedtest failed: ${message}`);
  };
} catch (error) {
  window.__baselineError = error instanceof Error ? error.message : String(error);
  say(`@cloudflare/speedtest failed: ${window.__baselineError}`);
}
