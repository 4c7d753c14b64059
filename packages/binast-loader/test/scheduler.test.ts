import { describe, expect, it } from 'vitest';
import { createScheduler } from '../src/scheduler';

/** A fetch that finishes when the test says so. */
function pendingFetch() {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return { done, finish };
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('createScheduler', () => {
  it('runs blocking scripts in document order even when a later one is fetched first', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    const first = pendingFetch();
    const second = pendingFetch();
    scheduler.add('blocking', () => first.done.then(() => order.push('first')));
    scheduler.add('blocking', () => second.done.then(() => order.push('second')));
    second.finish();
    await flush();
    expect(order).toEqual([]);
    first.finish();
    await flush();
    expect(order).toEqual(['first', 'second']);
  });

  it('runs deferred scripts only after parsing is done and every blocking script has run', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    const blocking = pendingFetch();
    scheduler.add('defer', async () => order.push('defer'));
    scheduler.add('blocking', () => blocking.done.then(() => order.push('blocking')));
    await flush();
    expect(order).toEqual([]);
    scheduler.parsingDone();
    await flush();
    expect(order).toEqual([]);
    blocking.finish();
    await flush();
    expect(order).toEqual(['blocking', 'defer']);
  });

  it('keeps deferred scripts in document order', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    const slow = pendingFetch();
    scheduler.add('defer', () => slow.done.then(() => order.push('slow')));
    scheduler.add('defer', async () => order.push('fast'));
    scheduler.parsingDone();
    await flush();
    expect(order).toEqual([]);
    slow.finish();
    await flush();
    expect(order).toEqual(['slow', 'fast']);
  });

  it('runs async scripts as soon as they are ready, without waiting for parsing or others', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    const blocking = pendingFetch();
    scheduler.add('blocking', () => blocking.done.then(() => order.push('blocking')));
    scheduler.add('async', async () => order.push('async'));
    await flush();
    expect(order).toEqual(['async']);
  });

  it('keeps going after a script fails', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    scheduler.add('blocking', async () => {
      order.push('failed');
      return false;
    });
    scheduler.add('blocking', async () => order.push('next'));
    await flush();
    expect(order).toEqual(['failed', 'next']);
  });

  it('runs the next scripts and still settles when a script rejects unexpectedly', async () => {
    const scheduler = createScheduler();
    const order: string[] = [];
    let settled = false;
    void scheduler.settled.then(() => {
      settled = true;
    });
    scheduler.add('blocking', () => Promise.reject(new Error('unforeseen')));
    scheduler.add('blocking', async () => order.push('after rejection'));
    scheduler.add('defer', async () => order.push('deferred'));
    scheduler.parsingDone();
    await flush();
    expect(order).toEqual(['after rejection', 'deferred']);
    expect(settled).toBe(true);
  });

  it('settles once every script queued before the end of parsing has run', async () => {
    const scheduler = createScheduler();
    const late = pendingFetch();
    let settled = false;
    void scheduler.settled.then(() => {
      settled = true;
    });
    scheduler.add('blocking', async () => {});
    scheduler.add('async', () => late.done);
    scheduler.add('defer', async () => {});
    scheduler.parsingDone();
    await flush();
    expect(settled).toBe(false);
    late.finish();
    await flush();
    expect(settled).toBe(true);
  });
});
