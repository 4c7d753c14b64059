import type { ExecutionMode } from './plan';

/** Runs a prepared script; never rejects (failures become the script's `error` event). */
export type Run = () => Promise<unknown>;

export interface Scheduler {
  /** Queues a script whose fetch is already in flight; resolves once it has executed (or failed). */
  add(mode: ExecutionMode, run: Run): Promise<unknown>;
  /** The document finished parsing: deferred scripts may start once every blocking one before them has run. */
  parsingDone(): void;
  /** Resolves when every script added before parsingDone() has executed (or failed); never rejects. */
  readonly settled: Promise<unknown>;
}

/**
 * Orders execution like the HTML spec orders plain scripts: blocking ones in document order, deferred ones (and
 * modules) in document order after parsing and after all blocking ones, async ones as soon as they are ready.
 * Fetches are not serialised, only execution: each `run` awaits its own, already started, fetch.
 */
export function createScheduler(): Scheduler {
  let openGate: (blockingDone: Promise<unknown>) => void = () => {};
  const gate = new Promise<unknown>((resolve) => {
    openGate = resolve;
  });
  let blocking: Promise<unknown> = Promise.resolve();
  let deferred: Promise<unknown> = gate;
  let parsed = false;
  const asyncRuns: Promise<unknown>[] = [];
  const settle = () => Promise.allSettled([blocking, deferred, ...asyncRuns]);
  return {
    add(mode, run) {
      // `run` also on rejection: a script that failed in an unforeseen way must not stop the ones after it.
      const done = mode === 'async' ? run() : (mode === 'blocking' ? blocking : deferred).then(run, run);
      if (mode === 'blocking') blocking = done;
      else if (mode === 'defer') deferred = done;
      else if (!parsed) asyncRuns.push(done);
      return done;
    },
    parsingDone() {
      parsed = true;
      openGate(blocking);
    },
    // The chains are read when the gate opens, so every script queued before parsingDone() counts.
    settled: gate.then(settle, settle),
  };
}
