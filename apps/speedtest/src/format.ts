/** Display helpers: units always shown, a fixed number of significant digits so cards do not change width. */

interface RateUnit {
  divisor: number;
  unit: string;
  digits: number;
}

/** The unit a rate is shown in: Gbps from 1e9, Mbps from 1e6, else kbps. */
function rateUnit(bitsPerSecond: number): RateUnit {
  if (bitsPerSecond >= 1e9) return { divisor: 1e9, unit: 'Gbps', digits: 2 };
  if (bitsPerSecond >= 1e6) return { divisor: 1e6, unit: 'Mbps', digits: 1 };
  return { divisor: 1e3, unit: 'kbps', digits: 0 };
}

const isNumber = (value: number | null | undefined): value is number =>
  value !== null && value !== undefined && Number.isFinite(value);

export function formatBitsPerSecond(bitsPerSecond: number | null | undefined): string {
  if (!isNumber(bitsPerSecond)) return '—';
  const { divisor, unit, digits } = rateUnit(bitsPerSecond);
  return `${(bitsPerSecond / divisor).toFixed(digits)} ${unit}`;
}

/**
 * An interval of rates in the unit of the figure it belongs to, so both ends read on one scale ("0.94 – 1.31 Gbps",
 * never "940 Mbps – 1.31 Gbps" or a negative kbps). A bound that is not finite (one sample) reads "none from a single interval".
 */
export function formatBitsPerSecondRange(low: number, high: number, figure: number): string {
  if (!isNumber(figure) || !isNumber(low)) return '—';
  const { divisor, unit, digits } = rateUnit(figure);
  const show = (value: number) => (value / divisor).toFixed(value / divisor < 10 ? Math.max(digits, 2) : digits);
  if (!isNumber(high)) return 'none from a single interval';
  return `${show(Math.max(0, low))} – ${show(high)} ${unit}`;
}

export function formatMs(ms: number | null | undefined): string {
  if (!isNumber(ms)) return '—';
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

export function formatMsRange(low: number, high: number): string {
  if (!isNumber(low) || !isNumber(high)) return '—';
  const digits = high < 10 ? 2 : 1;
  return `${low.toFixed(digits)} – ${high.toFixed(digits)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} kB`;
}

export const streamCount = (count: number) => `${count} ${count === 1 ? 'stream' : 'streams'}`;

/** Size class of a request for the per-size charts: 100 kB+, 1 MB+, 10 MB+, 100 MB+. */
export function sizeBucket(bytes: number): string {
  if (bytes >= 1e8) return '100 MB+';
  if (bytes >= 1e7) return '10 MB+';
  if (bytes >= 1e6) return '1 MB+';
  return '< 1 MB';
}

export const sizeBucketOrder = ['< 1 MB', '1 MB+', '10 MB+', '100 MB+'];

/**
 * Pure: a chart tick label without Intl. Chart.js formats numeric ticks with `Intl.NumberFormat`, whose first use
 * loads the locale's ICU data: a 500 ms-CPU task on a 4×-throttled phone when the first chart was drawn (bench/page).
 * Six significant digits hide binary fractions (0.30000000000000004 reads 0.3).
 */
export const tickLabel = (value: number | string): string =>
  typeof value === 'number' ? String(Number(value.toPrecision(6))) : value;
