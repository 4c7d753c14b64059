import {
  latencyResult,
  nextTask,
  type ProgressEvent,
  type RequestSample,
  resolveOptions,
  SpeedTest,
  type SpeedTestResult,
} from '@speedkit/speedtest';
import { renderChartSummaries } from './chart-summary';
import { type Metric, renderDetails } from './details';
import { failedDirections, finishedStatus } from './direction-failure';
import { downloadCsv, downloadJson } from './export';
import { explainFailure } from './failure';
import { formatBitsPerSecond, formatMs } from './format';
import { addToHistory, type HistoryEntry, historyEntry, loadHistory, saveHistory } from './history';
import { renderHistory } from './history-view';
import { LiveStatus, phaseAnnouncements } from './live-status';
import { renderLoss } from './loss-view';
import { describeConnection } from './meta';
import { autostartDecision, dataNotice, dataNoticeAfterRun, dataNoticeWhileRunning } from './notice';
import { failedPartialNote, stoppedStatus } from './outcome';
import { pageOptions } from './query';
import { showQueryProblems } from './query-notice';
import {
  clearCards,
  markUnfinishedCards,
  renderHeadline,
  renderQuality,
  renderThresholds,
  showBandwidthCard,
  showFailedDirection,
  showLatencyCards,
  showLoadedCard,
} from './view';

/** What the accuracy testbed and the e2e read: the final result and the latest progress. */
declare global {
  interface Window {
    __speedkitResult?: SpeedTestResult;
    __speedkitProgress?: ProgressEvent;
    __speedkitError?: string;
    /** After Stop or a failure: the phases that had finished, marked `partial` (never in `__speedkitResult`). */
    __speedkitPartialResult?: SpeedTestResult;
  }
  interface Navigator {
    /** Network Information API (Chromium): `saveData` is the user's "data saver" choice. */
    connection?: { saveData?: boolean };
  }
}

const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const startButton = byId<HTMLButtonElement>('start');
const pauseButton = byId<HTMLButtonElement>('pause');
const status = byId<HTMLElement>('status');
const announcer = byId<HTMLElement>('announcer');
const progress = byId<HTMLProgressElement>('progress');
const details = byId<HTMLElement>('details');
const csvButton = byId<HTMLButtonElement>('export-csv');
const jsonButton = byId<HTMLButtonElement>('export-json');
const historyList = byId<HTMLElement>('history');
const clearHistoryButton = byId<HTMLButtonElement>('clear-history');
const options = pageOptions(location.search);
const resolved = resolveOptions(options.engine);
let engine: SpeedTest | null = null;
let result: SpeedTestResult | null = null;
/** Increases with every run, so late work of an old run (charts) never lands on a new one. */
let runId = 0;
/** Past runs, read from localStorage after the first paint (see `showHistory`). */
let history: HistoryEntry[] = [];
/** The chart module once a finished run loaded it. */
let chartsModule: typeof import('./charts') | null = null;
const live = new LiveStatus(status, announcer, progress);

/**
 * Shows the rest of a partial result (Stop or a failure after some phases finished; its cards are already drawn) like
 * a finished one: selectable details, history (marked partial), quality, exports and charts; published as
 * `__speedkitPartialResult`.
 */
async function showPartial(partial: SpeedTestResult, thisRun: number): Promise<void> {
  result = partial;
  await nextTask();
  await showTheRest(partial, thisRun, () => {
    window.__speedkitPartialResult = partial;
  });
}

/**
 * After the figures: the history (a run belongs there even when a new one has started meanwhile; its localStorage
 * write is a slow synchronous call), then quality, loss and the export buttons, then `publish` for automation, then
 * the charts, one task each (`nextTask`). Chart.js is loaded only now: it is most of the page's script and nothing
 * needs it while the test runs.
 */
async function showTheRest(shown: SpeedTestResult, thisRun: number, publish: () => void): Promise<void> {
  history = addToHistory(history, historyEntry(shown));
  saveHistory(history);
  renderHistory(historyList, history);
  await nextTask();
  if (thisRun !== runId) return;
  renderQuality(shown);
  renderLoss(shown);
  csvButton.disabled = false;
  jsonButton.disabled = false;
  publish();
  await nextTask();
  if (thisRun !== runId) return;
  renderChartSummaries(shown);
  const module = await import('./charts');
  chartsModule = module;
  await module.renderCharts(shown, () => thisRun === runId);
}

/**
 * Shows the finished run in steps, one task each (`nextTask`), so no single task holds the page for long on a slow
 * phone: the figures first, then the history (its localStorage write is a slow synchronous call), then quality and
 * loss, then the charts. The result is published for automation once everything but the charts is on screen.
 */
async function finished(finalResult: SpeedTestResult, thisRun: number): Promise<void> {
  live.drop();
  result = finalResult;
  progress.value = 1;
  status.textContent = finishedStatus(finalResult);
  // A direction that failed is the end state's news: its whole sentence is shown, over as many lines as it takes.
  status.classList.toggle('problem', failedDirections(finalResult).length > 0);
  const rate = (direction: 'download' | 'upload') =>
    finalResult.directionFailures?.[direction]
      ? 'failed'
      : formatBitsPerSecond(finalResult[direction]?.bitsPerSecond.value);
  live.announce(
    `Test finished: download ${rate('download')}, upload ${rate('upload')}, idle latency ${formatMs(finalResult.latency.idleMs.value)}.`,
  );
  renderHeadline(finalResult);
  await nextTask();
  await showTheRest(finalResult, thisRun, () => {
    window.__speedkitResult = finalResult;
  });
}

/** Everything a previous run left on screen goes, so nothing old sits unmarked next to the new live values. */
function clearPreviousRun(): void {
  result = null;
  window.__speedkitResult = undefined;
  window.__speedkitError = undefined;
  window.__speedkitProgress = undefined;
  window.__speedkitPartialResult = undefined;
  clearCards();
  renderQuality(null);
  renderLoss(null);
  details.replaceChildren(
    Object.assign(document.createElement('p'), { className: 'hint', textContent: 'No figure selected.' }),
  );
  live.reset();
  csvButton.disabled = true;
  jsonButton.disabled = true;
  chartsModule?.clearCharts();
  renderChartSummaries(null);
}

async function run(): Promise<void> {
  const thisRun = ++runId;
  clearPreviousRun();
  engine = new SpeedTest(options.engine);
  const thisEngine = engine;
  // An autostarted first run keeps the notice the page shipped with (it says the same; a rewrite is a late paint).
  if (thisRun > 1 || decision !== 'start') setNotice(dataNoticeWhileRunning(resolved));
  const loadedPings: Record<'download' | 'upload', RequestSample[]> = { download: [], upload: [] };
  startButton.textContent = 'Stop';
  pauseButton.disabled = false;
  pauseButton.textContent = 'Pause';
  status.textContent = 'Starting…';
  engine.on('progress', (event) => {
    window.__speedkitProgress = event;
    live.queue(event);
  });
  engine.on('sample', (sample) => {
    if (sample.kind === 'latency' && sample.load !== 'idle') loadedPings[sample.load].push(sample);
  });
  engine.on('phase', ({ phase, result: phaseResult, provisional }) => {
    // A finished phase shows its final figure at once: no "measuring…" on a phase that is over.
    if (phase === 'latency') showLatencyCards(phaseResult as SpeedTestResult['latency'], provisional === true);
    else {
      showBandwidthCard(phase, phaseResult as NonNullable<SpeedTestResult['download']>);
      const loaded = latencyResult([], loadedPings.download, loadedPings.upload);
      showLoadedCard(phase, phase === 'download' ? loaded.downloadLoadedMs : loaded.uploadLoadedMs);
    }
  });
  engine.on('phase-failed', ({ phase, failure }) => showFailedDirection(phase, failure));
  engine.on('state', (state) => {
    if (state !== 'running') live.drop();
    if (state === 'paused' && !live.started && document.visibilityState === 'hidden') {
      // Opened in a background tab: the engine waits for the tab to be shown (a hidden tab is throttled).
      status.textContent = 'Waiting for this tab to be shown: a test in a background tab would read slow.';
    } else if (state === 'paused') {
      status.textContent = 'Paused: the current phase restarts on resume.';
      live.announce('Paused.');
    }
    if (state === 'running' && live.started) live.announce(`Resumed: ${phaseAnnouncements[live.phase]}`);
    else if (state === 'running') status.textContent = 'Starting…';
    pauseButton.textContent = state === 'paused' ? 'Resume' : 'Pause';
  });
  try {
    const finalResult = await engine.start();
    void finished(finalResult, thisRun);
  } catch (error) {
    live.drop();
    const message = error instanceof Error ? error.message : String(error);
    // The phases that finished stand as a partial result; what was cut short is crossed out or "not measured".
    const partial = thisEngine.partialResult();
    if (partial) renderHeadline(partial);
    if (thisEngine.state === 'aborted') {
      const crossedOut = markUnfinishedCards('stopped');
      status.textContent = stoppedStatus(partial, crossedOut);
      live.announce(status.textContent);
    } else {
      window.__speedkitError = message;
      markUnfinishedCards('failed');
      const explained = explainFailure(message, live.phase, resolved.serverUrl, location.origin);
      status.textContent = `${explained}${failedPartialNote(partial)}`;
      status.classList.add('problem');
      live.announce(explained);
    }
    if (partial) void showPartial(partial, thisRun);
  } finally {
    startButton.textContent = 'Start again';
    pauseButton.disabled = true;
    if (thisRun === runId) setNotice(dataNoticeAfterRun(resolved));
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
clearHistoryButton.addEventListener('click', () => {
  history = [];
  saveHistory(history);
  renderHistory(historyList, history);
});

for (const card of document.querySelectorAll<HTMLButtonElement>('.card')) {
  card.addEventListener('click', () => {
    if (!result) {
      details.replaceChildren(
        Object.assign(document.createElement('p'), {
          className: 'hint',
          textContent: 'Figures appear here when the test has finished.',
        }),
      );
      return;
    }
    for (const other of document.querySelectorAll('.card')) other.setAttribute('aria-expanded', 'false');
    card.setAttribute('aria-expanded', 'true');
    renderDetails(details, result, card.dataset.metric as Metric);
    // Focus stays on the card (the next card is one Tab away); a screen reader is told where the details went.
    live.announce(`${details.querySelector('h3')?.textContent ?? 'Figure'}: details shown below the cards.`);
  });
}

/**
 * The connection line, in a task of its own: starting a fetch took 15–30 ms of a 4×-throttled phone's main thread,
 * half of what the page's module evaluation cost when it ran there (e2e/long-tasks.spec.ts).
 */
async function showMeta(): Promise<void> {
  await nextTask();
  const meta = byId<HTMLElement>('meta');
  try {
    const response = await fetch(`${resolved.serverUrl}/meta`, { cache: 'no-store' });
    meta.textContent = describeConnection((await response.json()) as Record<string, unknown>);
  } catch {
    meta.textContent = 'Connection: could not reach /meta.';
  }
}

/**
 * The past runs and the thresholds table (folded away) after the first paint, each in a task of its own: the first
 * localStorage read is a synchronous call to the browser that took 30–50 ms of a 4×-throttled phone's main thread
 * while the page's module ran (bench/page).
 */
async function showHistoryAndThresholds(): Promise<void> {
  await nextTask();
  history = loadHistory();
  renderHistory(historyList, history);
  await nextTask();
  renderThresholds(byId('thresholds'));
}

void showHistoryAndThresholds();
const decision = autostartDecision(options.autostart, navigator.connection?.saveData);
// The page ships with the default notice; rewriting identical text would repaint it as a late, large paint (LCP).
const noticeText = byId<HTMLElement>('notice-text');
function setNotice(text: string): void {
  if (noticeText.textContent !== text) noticeText.textContent = text;
}
setNotice(dataNotice(decision, resolved));
showQueryProblems(byId<HTMLElement>('query-notice'), options.problems);
byId<HTMLElement>('data-notice').dataset.decision = decision;
void showMeta();
// Start once the page has loaded and settled: idle pings taken while the browser is still parsing and laying out
// the page read a few ms high on a busy machine.
function startWhenSettled(): void {
  const start = () => setTimeout(() => void run(), 100);
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

if (decision === 'start') startWhenSettled();
