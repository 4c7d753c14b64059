/** Display helpers: units always shown, a fixed number of significant digits so cards do not change width. */

export function formatBitsPerSecond(bitsPerSecond: number | null | undefined): string {
  if (bitsPerSecond === null || bitsPerSecond === undefined || !Number.isFinite(bitsPerSecond)) return '—';
  if (bitsPerSecond >= 1e9) return `${(bitsPerSecond / 1e9).toFixed(2)} Gbps`;
  if (bitsPerSecond >= 1e6) return `${(bitsPerSecond / 1e6).toFixed(1)} Mbps`;
  return `${(bitsPerSecond / 1e3).toFixed(0)} kbps`;
}

export function formatMs(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(1)} ms`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  return `${(bytes / 1e3).toFixed(0)} kB`;
}

/** Size class of a request for the per-size charts: 100 kB+, 1 MB+, 10 MB+, 100 MB+. */
export function sizeBucket(bytes: number): string {
  if (bytes >= 1e8) return '100 MB+';
  if (bytes >= 1e7) return '10 MB+';
  if (bytes >= 1e6) return '1 MB+';
  return '< 1 MB';
}

export const sizeBucketOrder = ['< 1 MB', '1 MB+', '10 MB+', '100 MB+'];
