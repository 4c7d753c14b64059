import { BasicPlatform, type ChartConfiguration, type ChartEvent, type Chart as ChartInstance } from 'chart.js';
import { chartBuilders } from './chart-configs';
import { Chart } from './chart-js';
import { chartEventType, type FromChartWorker, type ToChartWorker } from './chart-messages';

// Draws the result's charts off the page's main thread, on the OffscreenCanvases the page hands over: Chart.js's
// first chart took one 190–390 ms task on a 4×-throttled phone and each further one 55–90 ms (bench/page), which here
// block nothing the user touches. The page (charts.ts) forwards box sizes and pointer events; Chart.js cannot see the
// DOM from here.

type Listener = (event: ChartEvent) => void;

/** Per chart, the listeners Chart.js registered for its `events`; forwarded events are handed to them. */
const listeners = new Map<ChartInstance, Map<string, Listener>>();

/** Chart.js's platform for canvases without a DOM, plus the event listeners it has no DOM to attach to. */
class ForwardedEventsPlatform extends BasicPlatform {
  override addEventListener(chart: ChartInstance, type: string, listener: Listener): void {
    const byType = listeners.get(chart) ?? new Map<string, Listener>();
    byType.set(type, listener);
    listeners.set(chart, byType);
  }

  override removeEventListener(chart: ChartInstance, type: string): void {
    listeners.get(chart)?.delete(type);
  }
}

interface Slot {
  canvas: OffscreenCanvas;
  width: number;
  height: number;
  chart: ChartInstance | null;
}

const slots = new Map<string, Slot>();
const scope = self as unknown as {
  postMessage(message: FromChartWorker): void;
  onmessage: ((event: MessageEvent<ToChartWorker>) => void) | null;
};

function destroy(slot: Slot): void {
  if (!slot.chart) return;
  listeners.delete(slot.chart);
  // Chart.js clears the canvas as it goes.
  slot.chart.destroy();
  slot.chart = null;
}

function draw(message: Extract<ToChartWorker, { type: 'draw' }>): void {
  Chart.defaults.color = message.colors.text;
  Chart.defaults.borderColor = message.colors.grid;
  for (const { id, build } of chartBuilders(message.input, message.colors, message.devicePixelRatio)) {
    const slot = slots.get(id);
    if (!slot) continue;
    destroy(slot);
    const config = build();
    // No DOM to watch for size changes: the page sends `resize`. The canvas's size is the chart's, in CSS pixels,
    // until Chart.js scales it by the pixel ratio.
    config.options = { ...config.options, responsive: false };
    slot.canvas.width = slot.width;
    slot.canvas.height = slot.height;
    // Chart.js takes an OffscreenCanvas (its docs' worker example); its types name only DOM canvases.
    const canvas = slot.canvas as unknown as HTMLCanvasElement;
    slot.chart = new Chart(canvas, { ...config, platform: ForwardedEventsPlatform } as ChartConfiguration);
    scope.postMessage({ type: 'sized', id, width: slot.width, height: slot.height });
  }
}

scope.onmessage = ({ data: message }) => {
  switch (message.type) {
    case 'canvas':
      slots.set(message.id, { canvas: message.canvas, width: message.width, height: message.height, chart: null });
      return;
    case 'resize': {
      const slot = slots.get(message.id);
      if (!slot || (slot.width === message.width && slot.height === message.height)) return;
      slot.width = message.width;
      slot.height = message.height;
      if (!slot.chart) return;
      slot.chart.resize(message.width, message.height);
      scope.postMessage({ type: 'sized', id: message.id, width: message.width, height: message.height });
      return;
    }
    case 'draw':
      // The page waits for this answer, so it comes even when a chart failed (the error goes to the console).
      try {
        draw(message);
      } finally {
        scope.postMessage({ type: 'drawn', run: message.run });
      }
      return;
    case 'event': {
      const chart = slots.get(message.id)?.chart;
      const listener = chart && listeners.get(chart)?.get(message.eventType);
      if (!chart || !listener) return;
      // What Chart.js's DOM platform would have made of the DOM event; its plugins filter on `native.type`.
      listener({
        type: chartEventType[message.eventType] ?? message.eventType,
        chart,
        native: { type: message.eventType },
        x: message.x,
        y: message.y,
      } as unknown as ChartEvent);
      return;
    }
    case 'clear':
      for (const slot of slots.values()) destroy(slot);
      return;
  }
};

scope.postMessage({ type: 'ready' });
