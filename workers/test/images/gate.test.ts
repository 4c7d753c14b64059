import { describe, expect, it } from 'vitest';
import { TransformGate } from '../../src/images/edge/transform-gate';

describe('TransformGate', () => {
  it('grants up to maxConcurrent slots at once and refuses the next when it will not wait', async () => {
    const gate = new TransformGate({ maxConcurrent: 2, maxQueued: 4 });
    const first = await gate.acquire(0);
    const second = await gate.acquire(0);
    expect(first && second).toBeTruthy();
    expect(await gate.acquire(0)).toBeNull();
    expect(gate.load).toEqual({ running: 2, queued: 0 });
  });

  it('hands a released slot to the oldest waiter', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 4 });
    const release = await gate.acquire(0);
    const order: string[] = [];
    const granted = (name: string) => (slot: (() => void) | null) => {
      order.push(name);
      return slot;
    };
    const a = gate.acquire(5000).then(granted('a'));
    const b = gate.acquire(5000).then(granted('b'));
    expect(gate.load).toEqual({ running: 1, queued: 2 });
    release?.();
    (await a)?.();
    (await b)?.();
    expect(order).toEqual(['a', 'b']);
    expect(gate.load).toEqual({ running: 0, queued: 0 });
  });

  it('gives up on a waiter after its wait and forgets it', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 4 });
    const release = await gate.acquire(0);
    expect(await gate.acquire(10)).toBeNull();
    expect(gate.load.queued).toBe(0);
    release?.();
    expect(gate.load.running).toBe(0);
  });

  it('refuses at once when the queue is full', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 1 });
    const release = await gate.acquire(0);
    const waiting = gate.acquire(5000);
    expect(await gate.acquire(5000)).toBeNull();
    release?.();
    (await waiting)?.();
  });

  it('ignores a second release of the same slot', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 1 });
    const release = await gate.acquire(0);
    release?.();
    release?.();
    expect(gate.load.running).toBe(0);
    expect(await gate.acquire(0)).not.toBeNull();
  });

  it('serves every foreground waiter before background work, whatever the arrival order', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 4 });
    const release = await gate.acquire(0);
    const order: string[] = [];
    const granted = (name: string) => (slot: (() => void) | null) => {
      order.push(name);
      slot?.();
    };
    const background = gate.acquire(5000, true).then(granted('background'));
    const foreground = gate.acquire(5000).then(granted('foreground'));
    release?.();
    await Promise.all([background, foreground]);
    expect(order).toEqual(['foreground', 'background']);
  });

  it('gives a full queue’s last background place to a visitor’s request instead of refusing it', async () => {
    // A cold page: each negotiated image queues a background AVIF encode; those filled the queue, and the page's
    // next images were refused at once and went out as originals.
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 3 });
    const release = await gate.acquire(0);
    const outcomes: string[] = [];
    const settle = (name: string) => (slot: (() => void) | null) => {
      outcomes.push(`${name}: ${slot ? 'slot' : 'none'}`);
      slot?.();
    };
    const waiting = [1, 2, 3].map((n) => gate.acquire(5000, true).then(settle(`background ${n}`)));
    expect(gate.load.queued).toBe(3);
    // Another background job is refused when the queue is full, as before.
    expect(await gate.acquire(5000, true)).toBeNull();
    const visitor = gate.acquire(5000).then(settle('visitor'));
    // The youngest background job gave its place up at once (its encode is tried on a later request).
    await waiting[2];
    expect(outcomes).toEqual(['background 3: none']);
    expect(gate.load.queued).toBe(3);
    release?.();
    await Promise.all([visitor, ...waiting]);
    expect(outcomes).toEqual(['background 3: none', 'visitor: slot', 'background 1: slot', 'background 2: slot']);
  });

  it('lets background work take a free slot when nobody waits', async () => {
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 4 });
    expect(await gate.acquire(0, true)).not.toBeNull();
  });

  it('takes back a slot held past its lease (a cancelled request never releases), for new requests and waiters', async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const gate = new TransformGate({ maxConcurrent: 1, maxQueued: 4 }, 30);
    const abandoned = await gate.acquire(0);
    expect(abandoned).toBeTruthy();
    expect(await gate.acquire(0)).toBeNull();
    // A waiter whose wait outlasts the lease gets the slot instead of a refusal.
    const waited = await gate.acquire(100);
    expect(waited).toBeTruthy();
    expect(gate.load.running).toBe(1);
    // The first holder's late release frees nothing that is not its own.
    abandoned?.();
    expect(gate.load.running).toBe(1);
    await sleep(50);
    const next = await gate.acquire(0);
    expect(next).toBeTruthy();
    expect(gate.load.running).toBe(1);
  });
});
