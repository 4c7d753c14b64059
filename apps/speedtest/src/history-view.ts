import { formatBitsPerSecond, formatBytes, formatMs } from './format';
import type { HistoryEntry } from './history';

const twoDigits = (value: number) => String(value).padStart(2, '0');

/**
 * Pure: local date and time as "2026-11-24 05:07". Not `toLocaleString`: its first call loads the locale's ICU data,
 * a 120–480 ms task on a 4×-throttled phone right when a test finishes (bench/page); the ISO order reads the same
 * everywhere.
 */
export function when(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const day = `${date.getFullYear()}-${twoDigits(date.getMonth() + 1)}-${twoDigits(date.getDate())}`;
  return `${day} ${twoDigits(date.getHours())}:${twoDigits(date.getMinutes())}`;
}

/** A direction's rate, or "failed" when it ran without a figure (an older entry has no such mark). */
const rateCell = (entry: HistoryEntry, direction: 'download' | 'upload') =>
  entry.failed?.includes(direction)
    ? 'failed'
    : formatBitsPerSecond(direction === 'download' ? entry.downloadBitsPerSecond : entry.uploadBitsPerSecond);

/** The past-runs table; an empty history reads as one sentence instead of an empty table. */
export function renderHistory(container: HTMLElement, history: readonly HistoryEntry[]): void {
  if (history.length === 0) {
    const empty = document.createElement('p');
    empty.className = 'hint';
    empty.textContent = 'No past runs in this browser yet.';
    container.replaceChildren(empty);
    return;
  }
  const table = document.createElement('table');
  table.innerHTML =
    '<caption class="visually-hidden">Past runs, newest first</caption><thead><tr><th scope="col">When</th><th scope="col">Download</th><th scope="col">Upload</th><th scope="col">Latency</th><th scope="col">Loaded</th><th scope="col">RPM</th><th scope="col">Data</th></tr></thead>';
  const body = document.createElement('tbody');
  for (const entry of history) {
    const row = document.createElement('tr');
    for (const text of [
      entry.partial ? `${when(entry.startedAt)} (partial)` : when(entry.startedAt),
      rateCell(entry, 'download'),
      rateCell(entry, 'upload'),
      formatMs(entry.idleLatencyMs),
      formatMs(entry.loadedLatencyMs),
      entry.rpm === null ? '—' : String(Math.round(entry.rpm)),
      formatBytes(entry.bytes),
    ]) {
      const cell = document.createElement('td');
      cell.textContent = text;
      row.append(cell);
    }
    body.append(row);
  }
  table.append(body);
  // On a phone the table scrolls sideways: a keyboard reaches it only when the scrolling box itself takes focus, and a
  // screen reader then hears what the box holds.
  const wrapper = document.createElement('div');
  wrapper.className = 'table-scroll';
  wrapper.tabIndex = 0;
  wrapper.setAttribute('role', 'region');
  wrapper.setAttribute('aria-label', 'Past runs table');
  wrapper.append(table);
  container.replaceChildren(wrapper);
}
