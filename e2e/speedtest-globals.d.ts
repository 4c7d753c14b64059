// What the speed-test pages publish for automation (see apps/speedtest/README.md); loosely typed on purpose so the
// specs state the fields they rely on.
declare global {
  interface Window {
    __speedkitResult?: unknown;
    __speedkitProgress?: { phase: string; fraction: number };
    __speedkitError?: string;
    /** After Stop or a failure: the finished phases, marked `partial`. */
    __speedkitPartialResult?: unknown;
    __baselineResult?: unknown;
    __baselineError?: string;
    __speedkitChartColors?: Record<string, string>;
    /** Where the charts were drawn: 'worker' (OffscreenCanvas) or 'main' (the fallback). */
    __speedkitChartThread?: 'worker' | 'main';
  }
}

export {};
