// Globals of the scripts bench/speed-page puts into pages (tsconfig.bench-browser.json): report-client.js runs in the
// report beside Chart.js's UMD build, which defines `Chart`, and leaves its charts on `window` for the e2e test.
import type { Chart as ChartJs } from 'chart.js';

declare global {
  const Chart: typeof ChartJs;
  interface Window {
    speedPageCharts: Record<string, ChartJs>;
  }
}
