import { describe, expect, it } from 'vitest';
import { longTasks, ownerOfUrl, pageMainThread, summarizeTasks, threadSamples } from '../trace-tasks.mjs';

const origin = 'http://127.0.0.1:8806';
const ours = `${origin}/assets/index-abc.js`;
const chart = `${origin}/assets/chartjs-def.js`;
const chartUrl = /\/assets\/chartjs-[^/]*\.js$/;

/** A trace of two renderers: the page's (pid 2) and about:blank's (pid 3), shaped as Chromium writes them. */
function trace() {
  const meta = (pid: number, tid: number) => ({
    name: 'thread_name',
    ph: 'M',
    pid,
    tid,
    ts: 0,
    args: { name: 'CrRendererMain' },
  });
  return [
    meta(2, 10),
    meta(3, 20),
    { name: 'ParseHTML', ph: 'X', pid: 2, tid: 10, ts: 1_000, dur: 10, args: { data: { url: `${origin}/` } } },
    { name: 'Profile', ph: 'P', pid: 2, tid: 10, ts: 1_000, id: '0x1', args: { data: { startTime: 1_000_000 } } },
    {
      name: 'ProfileChunk',
      ph: 'P',
      pid: 2,
      tid: 99,
      ts: 1_000,
      id: '0x1',
      args: {
        data: {
          cpuProfile: {
            nodes: [
              { id: 1, callFrame: { functionName: '(root)', url: '' } },
              { id: 2, parent: 1, callFrame: { functionName: 'run', url: ours } },
              { id: 3, parent: 2, callFrame: { functionName: 'max', url: '' } },
              { id: 4, parent: 2, callFrame: { functionName: 'draw', url: chart } },
              { id: 5, parent: 1, callFrame: { functionName: '(garbage collector)', url: '' } },
            ],
            // 40 ms in `run` (one sample in a URL-less builtin it called), 30 ms in Chart.js, 10 ms of GC.
            samples: [2, 3, 2, 2, 4, 4, 4, 5],
          },
          timeDeltas: [0, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000, 10_000],
        },
      },
    },
    // A 100 ms task covering the samples, a 20 ms one (not long), and a long task on the other renderer.
    { name: 'RunTask', ph: 'X', pid: 2, tid: 10, ts: 1_000_000, dur: 100_000, tdur: 60_000 },
    { name: 'RunTask', ph: 'X', pid: 2, tid: 10, ts: 1_200_000, dur: 20_000 },
    { name: 'RunTask', ph: 'X', pid: 3, tid: 20, ts: 1_000_000, dur: 90_000 },
  ];
}

describe('trace-tasks', () => {
  it('tells Chart.js, our bundle and foreign scripts apart by URL', () => {
    expect(ownerOfUrl(ours, origin, chartUrl)).toBe('ours');
    expect(ownerOfUrl(chart, origin, chartUrl)).toBe('chartjs');
    expect(ownerOfUrl('chrome-extension://x/a.js', origin, chartUrl)).toBe('other');
  });

  it('finds the renderer main thread that loaded the page', () => {
    expect(pageMainThread(trace(), origin)).toEqual({ pid: 2, tid: 10 });
    expect(pageMainThread(trace(), 'http://elsewhere')).toBeNull();
  });

  it('reads the sampled frames in time order, a builtin counting for its caller', () => {
    const samples = threadSamples(trace(), { pid: 2, tid: 10 });
    expect(samples.map((sample) => sample.tsUs)).toEqual([
      1_000_000, 1_010_000, 1_020_000, 1_030_000, 1_040_000, 1_050_000, 1_060_000, 1_070_000,
    ]);
    expect(samples[1]).toMatchObject({ url: ours, functionName: 'run' });
    expect(samples[7]).toMatchObject({ url: '', functionName: '(garbage collector)' });
  });

  it('splits each long task of the page by owner and ignores short tasks and other renderers', () => {
    const tasks = longTasks(trace(), { origin, chartUrl });
    expect(tasks).toHaveLength(1);
    const [task] = tasks;
    expect(task?.durationMs).toBe(100);
    expect(task?.oursMs).toBe(40);
    expect(task?.chartjsMs).toBe(30);
    // The GC sample stands for the last 30 ms of the task (to its end): other.
    expect(task?.otherMs).toBe(30);
    expect(task?.owner).toBe('ours');
    expect(task?.topScript).toBe('index-abc.js run');
    // CPU time: the thread's own clock for the task, shared by the owners' sample counts (4, 3 and 1 of 8).
    expect(task?.cpuMs).toBe(60);
    expect(task?.oursCpuMs).toBe(30);
    expect(task?.chartjsCpuMs).toBe(22.5);
    const summary = summarizeTasks(tasks);
    expect(summary.ours).toEqual({ count: 1, maxMs: 100, maxShareMs: 40, maxCpuMs: 30 });
    expect(summary.chartjs).toEqual({ count: 0, maxMs: 0, maxShareMs: 30, maxCpuMs: 22.5 });
  });
});
