import type { SpeedTestResult } from '@speedkit/speedtest';

/** One past run as kept in this browser: the headline figures only, never the samples (bit/s, ms, bytes). */
export interface HistoryEntry {
  startedAt: string;
  downloadBitsPerSecond: number | null;
  uploadBitsPerSecond: number | null;
  idleLatencyMs: number | null;
  jitterMs: number | null;
  loadedLatencyMs: number | null;
  rpm: number | null;
  bytes: number;
  /** The run was stopped or failed after some phases had finished: the figures are of those only. */
  partial?: boolean;
  /** Directions that ran without a figure (`directionFailures`): their cells say "failed", not "—". */
  failed?: ('download' | 'upload')[];
}

/** Runs kept; older ones drop off. */
export const maxHistoryEntries = 20;
const historyKey = 'speedkit:history:v1';

const finite = (value: number | null | undefined) =>
  value !== null && value !== undefined && Number.isFinite(value) ? value : null;

/** Pure: the entry a finished (or partial) result adds to the history. */
export function historyEntry(result: SpeedTestResult): HistoryEntry {
  const loaded = [result.latency.downloadLoadedMs?.value, result.latency.uploadLoadedMs?.value].filter(
    (value): value is number => finite(value) !== null,
  );
  const failed = (['download', 'upload'] as const).filter((direction) => result.directionFailures?.[direction]);
  return {
    startedAt: result.startedAt,
    downloadBitsPerSecond: finite(result.download?.bitsPerSecond.value),
    uploadBitsPerSecond: finite(result.upload?.bitsPerSecond.value),
    idleLatencyMs: finite(result.latency.idleMs.value),
    jitterMs: finite(result.latency.jitterMs),
    loadedLatencyMs: loaded.length > 0 ? Math.max(...loaded) : null,
    rpm: finite(result.rpm.overall),
    bytes: result.totalBytes.download + result.totalBytes.upload,
    ...(result.partial ? { partial: true } : {}),
    ...(failed.length > 0 ? { failed } : {}),
  };
}

const isEntry = (value: unknown): value is HistoryEntry =>
  typeof value === 'object' && value !== null && typeof (value as HistoryEntry).startedAt === 'string';

/** Pure: parses stored history; anything malformed reads as no history rather than breaking the page. */
export function parseHistory(stored: string | null): HistoryEntry[] {
  if (!stored) return [];
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, maxHistoryEntries) : [];
  } catch {
    return [];
  }
}

/** Pure: newest first, at most `maxHistoryEntries`. */
export const addToHistory = (history: readonly HistoryEntry[], entry: HistoryEntry): HistoryEntry[] =>
  [entry, ...history.filter((old) => old.startedAt !== entry.startedAt)].slice(0, maxHistoryEntries);

/** localStorage, when the browser allows it (private modes and blocked storage throw). */
export function loadHistory(): HistoryEntry[] {
  try {
    return parseHistory(localStorage.getItem(historyKey));
  } catch {
    return [];
  }
}

export function saveHistory(history: readonly HistoryEntry[]): boolean {
  try {
    if (history.length === 0) localStorage.removeItem(historyKey);
    else localStorage.setItem(historyKey, JSON.stringify(history));
    return true;
  } catch {
    return false;
  }
}
