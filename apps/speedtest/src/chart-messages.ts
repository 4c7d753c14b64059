import type { ChartColors, ChartInput } from './chart-configs';

// What the page and the chart worker (chart-worker.ts) say to each other. Sizes are CSS pixels.

export type ToChartWorker =
  /** A canvas handed over once, for good (`transferControlToOffscreen`), with its box's current size. */
  | { type: 'canvas'; id: string; canvas: OffscreenCanvas; width: number; height: number }
  | { type: 'resize'; id: string; width: number; height: number }
  /** Draw the four charts of run `run`; the worker answers `drawn` with the same number. */
  | { type: 'draw'; run: number; input: ChartInput; colors: ChartColors; devicePixelRatio: number }
  /** A pointer event on a canvas, at (x, y) in the canvas's CSS pixels; `type` is the DOM event's. */
  | { type: 'event'; id: string; eventType: string; x: number; y: number }
  /** Remove every chart: a new run starts with empty chart boxes. */
  | { type: 'clear' };

export type FromChartWorker =
  | { type: 'ready' }
  | { type: 'drawn'; run: number }
  /** A chart now has this size on screen (after a draw or a resize): the page publishes it for the e2e. */
  | { type: 'sized'; id: string; width: number; height: number };

/** The DOM events Chart.js listens to by default (its `events` option), forwarded to the worker as they are. */
export const forwardedEvents = ['mousemove', 'mouseout', 'click', 'touchstart', 'touchmove'] as const;

/** The type Chart.js's DOM platform gives each of them (touch reads as mouse). */
export const chartEventType: Record<string, string> = {
  mousemove: 'mousemove',
  mouseout: 'mouseout',
  click: 'click',
  touchstart: 'mousedown',
  touchmove: 'mousemove',
};
