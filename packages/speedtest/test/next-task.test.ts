import { afterEach, describe, expect, it } from 'vitest';
import { nextTask } from '../src/next-task';

describe('nextTask', () => {
  afterEach(() => {
    delete (globalThis as { scheduler?: unknown }).scheduler;
  });

  it('resolves in a later task: after the microtasks queued before it and the current task', async () => {
    const order: string[] = [];
    const yielded = nextTask().then(() => order.push('next task'));
    queueMicrotask(() => order.push('microtask'));
    order.push('current task');
    await yielded;
    expect(order).toEqual(['current task', 'microtask', 'next task']);
  });

  it('uses scheduler.yield() where the browser has it', async () => {
    let calls = 0;
    (globalThis as { scheduler?: unknown }).scheduler = {
      yield: () => {
        calls++;
        return Promise.resolve();
      },
    };
    await nextTask();
    expect(calls).toBe(1);
  });
});
