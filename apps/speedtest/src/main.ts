import { type ProgressEvent, SpeedTest, type SpeedTestResult } from '@speedkit/speedtest';
import { renderCharts } from './charts';
import { type Metric, renderDetails } from './details';
import { downloadCsv, downloadJson } from './export';
import { formatBitsPerSecond, formatBytes, formatMs } from './format';
import { pageOptions } from './query';
import { renderHeadline, renderQuality, renderThresholds, setCard } from './view';

/** What the accuracy testbed and the e2e read: the final result and the latest progress. */
declare global {
  interface Window {
    __speedkitResult?: SpeedTestResult;
    __speedkitProgress?: ProgressEvent;
    __speedkitError?: string;
  }
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const startButton = byId<HTMLButtonElement>('start');
const pauseButton = byId<HTMLButtonElement>('pause');
const status = byId<HTMLElement>('status');
const progress = byId<HTMLProgressElement>('progress');
const details = byId<HTMLElement>('details');
const csvButton = byId<HTMLButtonElement>('export-csv');
const jsonButton = byId<HTMLButtonElement>('export-json');
const options = pageOptions(location.search);
let engine: SpeedTest | null = null;
let result: SpeedTestResult | null = null;

const phaseNames = { latency: 'Measuring idle latency', download: 'Measuring download', upload: 'Measuring upload' };

/**
 * Progress is redrawn at most once per `progressRedrawMs`: the engine reports after every ping, a few ms apart, and a
 * repaint each time would compete for the CPU with what the pings measure (this matters on small machines).
 */
const progressRedrawMs = 200;
let pendingProgress: ProgressEvent | null = null;
let redrawTimer: ReturnType<typeof setTimeout> | undefined;

function queueProgress(event: ProgressEvent): void {
  window.__speedkitProgress = event;
  pendingProgress = event;
  redrawTimer ??= setTimeout(() => {
    redrawTimer = undefined;
    if (pendingProgress) showProgress(pendingProgress);
    pendingProgress = null;
  }, progressRedrawMs);
}

/** A final or paused status must not be overwritten by a progress redraw still queued. */
function dropQueuedProgress(): void {
  clearTimeout(redrawTimer);
  redrawTimer = undefined;
  pendingProgress = null;
}

function showProgress(event: ProgressEvent): void {
  progress.value = event.fraction;
  const rate = event.currentBitsPerSecond === null ? '' : ` · ${formatBitsPerSecond(event.currentBitsPerSecond)}`;
  const streams = event.streams ? ` · ${event.streams} streams` : '';
  const moved = formatBytes(event.bytes.download + event.bytes.upload);
  status.textContent = `${phaseNames[event.phase]}${rate}${streams} · ${moved} used`;
  if (event.phase === 'latency') setCard('latency', formatMs(event.currentLatencyMs), 'measuring…');
  if (event.phase !== 'latency' && event.currentBitsPerSecond !== null) {
    setCard(event.phase, formatBitsPerSecond(event.currentBitsPerSecond), 'measuring…');
  }
}

function finished(finalResult: SpeedTestResult): void {
  dropQueuedProgress();
  result = finalResult;
  window.__speedkitResult = finalResult;
  progress.value = 1;
  const bytes = formatBytes(finalResult.totalBytes.download + finalResult.totalBytes.upload);
  status.textContent = `Done in ${(finalResult.durationMs / 1000).toFixed(1)} s, ${bytes} used.`;
  renderHeadline(finalResult);
  renderQuality(finalResult);
  renderCharts(finalResult);
  csvButton.disabled = false;
  jsonButton.disabled = false;
}

async function run(): Promise<void> {
  engine = new SpeedTest(options.engine);
  result = null;
  window.__speedkitResult = undefined;
  window.__speedkitError = undefined;
  csvButton.disabled = true;
  jsonButton.disabled = true;
  startButton.textContent = 'Stop';
  pauseButton.disabled = false;
  pauseButton.textContent = 'Pause';
  engine.on('progress', queueProgress);
  engine.on('state', (state) => {
    if (state !== 'running') dropQueuedProgress();
    if (state === 'paused') status.textContent = 'Paused: the current phase restarts on resume.';
    pauseButton.textContent = state === 'paused' ? 'Resume' : 'Pause';
  });
  try {
    finished(await engine.start());
  } catch (error) {
    dropQueuedProgress();
    const message = error instanceof Error ? error.message : String(error);
    if (engine.state === 'aborted') {
      status.textContent = 'Stopped. Start again for a new test.';
    } else {
      window.__speedkitError = message;
      status.textContent = `The test failed: ${message}`;
    }
  } finally {
    startButton.textContent = 'Start again';
    pauseButton.disabled = true;
  }
}

startButton.addEventListener('click', () => {
  if (engine && (engine.state === 'running' || engine.state === 'paused')) engine.abort();
  else void run();
});
pauseButton.addEventListener('click', () => {
  if (engine?.state === 'paused') engine.resume();
  else engine?.pause();
});
csvButton.addEventListener('click', () => result && downloadCsv(result));
jsonButton.addEventListener('click', () => result && downloadJson(result));

for (const card of document.querySelectorAll<HTMLButtonElement>('.card')) {
  card.addEventListener('click', () => {
    if (!result) {
      details.innerHTML = '<p class="hint">Figures appear when the test has finished.</p>';
      return;
    }
    for (const other of document.querySelectorAll('.card')) other.setAttribute('aria-expanded', 'false');
    card.setAttribute('aria-expanded', 'true');
    renderDetails(details, result, card.dataset.metric as Metric);
  });
}

async function showMeta(): Promise<void> {
  const meta = byId<HTMLElement>('meta');
  try {
    const response = await fetch(`${options.engine.serverUrl ?? ''}/meta`, { cache: 'no-store' });
    const body = (await response.json()) as Record<string, string | number | null>;
    const where = [body.city, body.country, body.colo && `via ${body.colo}`, body.asn && `AS${body.asn}`];
    const text = where.filter(Boolean).join(', ');
    meta.textContent = `Connection: ${text || 'location unknown (local server)'}${body.httpProtocol ? ` · ${body.httpProtocol}` : ''}`;
  } catch {
    meta.textContent = 'Connection: could not reach /meta.';
  }
}

renderThresholds(byId('thresholds'));
void showMeta();
// Start once the page has loaded and settled: idle pings taken while the browser is still parsing and laying out
// the page read a few ms high on a busy machine.
function startWhenSettled(): void {
  const start = () => setTimeout(() => void run(), 100);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

if (options.autostart) startWhenSettled();
