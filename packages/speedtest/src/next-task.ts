/** `scheduler.yield()` (Chromium 129+), typed here because TypeScript's DOM library does not declare it yet. */
interface YieldingScheduler {
  yield(): Promise<void>;
}

/**
 * Resolves in a later task, so the browser can paint and handle input in between: a long piece of work split at
 * these points never blocks the page for long. `scheduler.yield()` keeps the work's place in the queue; without it, a
 * MessageChannel message runs sooner than `setTimeout(0)` (no 4 ms clamp after nesting).
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Partial<YieldingScheduler> }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  if (typeof MessageChannel === 'undefined') return new Promise((resolve) => setTimeout(resolve, 0));
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
