// Types of trace-tasks.mjs, so TypeScript files (e2e/long-tasks.spec.ts) can use the same attribution as bench/page.

export declare const owners: readonly ['ours', 'chartjs', 'other'];
export declare const longTaskMs: number;

export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  id?: string;
  args?: Record<string, unknown>;
}

export interface LongTask {
  startMs: number;
  durationMs: number;
  oursMs: number;
  chartjsMs: number;
  otherMs: number;
  owner: (typeof owners)[number];
  topScript: string;
  topEvents: string;
  cpuMs: number;
  oursCpuMs: number;
  chartjsCpuMs: number;
}

export declare function ownerOfUrl(url: string, origin: string, chartUrl: RegExp): (typeof owners)[number];
export declare function pageMainThread(events: TraceEvent[], origin: string): { pid: number; tid: number } | null;
export declare function threadSamples(
  events: TraceEvent[],
  thread: { pid: number; tid: number },
): { tsUs: number; url: string; functionName: string }[];
export declare function longTasks(
  events: TraceEvent[],
  options: { origin: string; chartUrl: RegExp; minMs?: number },
): LongTask[];
export declare function summarizeTasks(
  tasks: LongTask[],
): Record<(typeof owners)[number], { count: number; maxMs: number; maxShareMs: number; maxCpuMs: number }>;
