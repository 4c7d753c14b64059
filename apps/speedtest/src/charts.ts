import type { SpeedTestResult } from '@speedkit/speedtest';
import { type ChartColors, type ChartInput, chartIds, chartPixelRatio } from './chart-configs';
import { type FromChartWorker, forwardedEvents, type ToChartWorker } from './chart-messages';

// The result's four charts. Where the browser can, Chart.js runs in a worker on OffscreenCanvases (chart-worker.ts):
// on a 4×-throttled phone it took one 190–390 ms main-thread task for the first chart and 55–90 ms for each further
// one (bench/page), input the page could not answer meanwhile. Elsewhere it draws here, one chart per task
// (chart-main-thread.ts). Either way the configurations come from chart-configs.ts, so both look the same.

export type { ChartColors } from './chart-configs';

declare global {
  interface Window {
    __speedkitChartColors?: ChartColors;
    /** Where the charts were drawn: the e2e long-task check knows whose samples to expect on the main thread. */
    __speedkitChartThread?: 'worker' | 'main';
  }
}

/** Chart colours come from CSS custom properties so the dark scheme gets its own, readable ones. */
function readColors(): ChartColors {
  const style = getComputedStyle(document.documentElement);
  const read = (name: string) => style.getPropertyValue(name).trim();
  return {
    text: read('--chart-text'),
    grid: read('--chart-grid'),
    download: read('--chart-download'),
    upload: read('--chart-upload'),
    idle: read('--chart-idle'),
    range: read('--chart-range'),
    background: read('--bg'),
  };
}

/** How long the worker may take to load Chart.js before the charts are drawn here instead (4× throttled phone). */
const workerStartTimeoutMs = 15_000;

const canvases = (): HTMLCanvasElement[] =>
  chartIds.map((id) => document.getElementById(id)).filter((node) => node instanceof HTMLCanvasElement);

function workerSupported(): boolean {
  return (
    typeof Worker === 'function' &&
    typeof OffscreenCanvas === 'function' &&
    typeof HTMLCanvasElement.prototype.transferControlToOffscreen === 'function'
  );
}

/**
 * Starts the chart worker and waits until it has loaded Chart.js; null where it cannot run (no module workers, or
 * the page's policy forbids it). Nothing is handed over before that: a transferred canvas cannot be drawn here again.
 */
function startWorker(): Promise<Worker | null> {
  if (!workerSupported()) return Promise.resolve(null);
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./chart-worker.ts', import.meta.url), { type: 'module', name: 'charts' });
    } catch {
      resolve(null);
      return;
    }
    const fail = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve(null);
    };
    const timer = setTimeout(fail, workerStartTimeoutMs);
    worker.addEventListener('error', fail, { once: true });
    worker.addEventListener(
      'message',
      (event: MessageEvent<FromChartWorker>) => {
        if (event.data.type !== 'ready') return;
        clearTimeout(timer);
        worker.removeEventListener('error', fail);
        resolve(worker);
      },
      { once: true },
    );
  });
}

/** The page's side of the worker: hands the canvases over and forwards their sizes and pointer events. */
class WorkerCharts {
  #run = 0;
  #drawn = new Map<number, () => void>();

  constructor(private readonly worker: Worker) {
    const post = (message: ToChartWorker, transfer: Transferable[] = []) => worker.postMessage(message, transfer);
    worker.addEventListener('message', ({ data: message }: MessageEvent<FromChartWorker>) => {
      if (message.type === 'sized') {
        // The width the chart was last drawn at: the e2e waits for it to follow a resized box.
        const canvas = document.getElementById(message.id);
        if (canvas) canvas.dataset.drawnWidth = String(message.width);
        return;
      }
      if (message.type !== 'drawn') return;
      this.#drawn.get(message.run)?.();
      this.#drawn.delete(message.run);
    });
    const resizes = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const canvas = entry.target.querySelector('canvas');
        const { width, height } = entry.contentRect;
        if (canvas) post({ type: 'resize', id: canvas.id, width: Math.floor(width), height: Math.floor(height) });
      }
    });
    for (const canvas of canvases()) {
      const box = canvas.parentElement;
      if (!box) continue;
      // What Chart.js's DOM platform sets on a canvas it sizes: the box decides the size, the worker the pixels.
      Object.assign(canvas.style, { display: 'block', boxSizing: 'border-box', width: '100%', height: '100%' });
      const offscreen = canvas.transferControlToOffscreen();
      post({ type: 'canvas', id: canvas.id, canvas: offscreen, width: box.clientWidth, height: box.clientHeight }, [
        offscreen,
      ]);
      resizes.observe(box);
      const forward = (event: MouseEvent | TouchEvent) => {
        const point = 'touches' in event ? event.touches[0] : event;
        if (!point && event.type !== 'mouseout') return;
        const rect = canvas.getBoundingClientRect();
        const x = point ? point.clientX - rect.left : 0;
        const y = point ? point.clientY - rect.top : 0;
        post({ type: 'event', id: canvas.id, eventType: event.type, x, y });
      };
      for (const type of forwardedEvents) canvas.addEventListener(type, forward, { passive: true });
    }
  }

  /** Resolves once the worker has drawn this run's charts; never when a clear came first. */
  draw(input: ChartInput, colors: ChartColors): Promise<void> {
    const run = ++this.#run;
    const done = new Promise<void>((resolve) => this.#drawn.set(run, resolve));
    this.worker.postMessage({
      type: 'draw',
      run,
      input,
      colors,
      devicePixelRatio: chartPixelRatio(globalThis.devicePixelRatio),
    } satisfies ToChartWorker);
    return done.then(() => {
      for (const canvas of canvases()) canvas.style.visibility = '';
    });
  }

  /** Hides the canvases at once (the worker clears them a moment later) and drops any draw still under way. */
  clear(): void {
    this.#run++;
    this.#drawn.clear();
    for (const canvas of canvases()) canvas.style.visibility = 'hidden';
    this.worker.postMessage({ type: 'clear' } satisfies ToChartWorker);
  }
}

let workerCharts: Promise<WorkerCharts | null> | null = null;
let mainThread: typeof import('./chart-main-thread') | null = null;

/** Removes every chart: a new run starts with empty chart boxes, never the previous run's. */
export function clearCharts(): void {
  mainThread?.clearMainThreadCharts();
  void workerCharts?.then((charts) => charts?.clear());
}

/** Draws the four charts: in the chart worker where it runs, else here one per task. */
export async function renderCharts(result: SpeedTestResult, isCurrent: () => boolean): Promise<void> {
  const colors = readColors();
  const input: ChartInput = {
    samples: result.samples,
    intervals: result.intervals,
    intervalMs: result.options.intervalMs,
  };
  workerCharts ??= startWorker().then((worker) => (worker ? new WorkerCharts(worker) : null));
  const charts = await workerCharts;
  if (!isCurrent()) return;
  if (charts) {
    await charts.draw(input, colors);
    window.__speedkitChartThread = 'worker';
  } else {
    mainThread ??= await import('./chart-main-thread');
    if (!(await mainThread.drawOnMainThread(input, colors, isCurrent))) return;
    window.__speedkitChartThread = 'main';
  }
  if (isCurrent()) window.__speedkitChartColors = colors;
}
