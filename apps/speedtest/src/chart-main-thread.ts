import { nextTask } from '@speedkit/speedtest';
import type { ChartConfiguration, Chart as ChartInstance } from 'chart.js';
import { type ChartColors, type ChartInput, chartBuilders } from './chart-configs';
import { Chart } from './chart-js';

// The fallback where the chart worker cannot run (no OffscreenCanvas or module workers, or a policy forbids the
// worker): the same charts on the page's main thread, one per task.

const charts = new Map<string, ChartInstance>();

export function clearMainThreadCharts(): void {
  for (const chart of charts.values()) chart.destroy();
  charts.clear();
}

export async function drawOnMainThread(input: ChartInput, colors: ChartColors, isCurrent: () => boolean) {
  Chart.defaults.color = colors.text;
  Chart.defaults.borderColor = colors.grid;
  for (const { id, build } of chartBuilders(input, colors, globalThis.devicePixelRatio)) {
    await nextTask();
    // A new run started meanwhile: its charts must not be overwritten by this one's.
    if (!isCurrent()) return false;
    const canvas = document.getElementById(id) as HTMLCanvasElement | null;
    if (!canvas) continue;
    charts.get(id)?.destroy();
    const config = build();
    config.options = { ...config.options, responsive: true };
    charts.set(id, new Chart(canvas, config as ChartConfiguration));
  }
  return true;
}
