// Step logging shared by setup, build and test: one line per step with its wall time, so a slow or failing
// step is obvious on a bare machine where the first run takes minutes.

/** An error whose message is meant for a person: printed without a stack trace. */
export class StepError extends Error {
  /**
   * @param {string} message what went wrong
   * @param {string} [hint] what the reader can do about it
   */
  constructor(message, hint) {
    super(message);
    this.hint = hint;
  }
}

/**
 * Runs one named step, printing its duration.
 * @template T
 * @param {string} name
 * @param {() => Promise<T> | T} fn returns a short status (e.g. "cached") or a value
 * @returns {Promise<T>}
 */
export async function step(name, fn) {
  const startMs = performance.now();
  process.stdout.write(`▸ ${name} …\n`);
  try {
    const result = await fn();
    const note = typeof result === 'string' ? ` (${result})` : '';
    process.stdout.write(`✔ ${name}${note} in ${formatSeconds(performance.now() - startMs)}\n`);
    return result;
  } catch (error) {
    process.stdout.write(`✘ ${name} failed after ${formatSeconds(performance.now() - startMs)}\n`);
    throw error;
  }
}

/** @param {number} durationMs */
export function formatSeconds(durationMs) {
  return `${(durationMs / 1000).toFixed(1)} s`;
}

/**
 * Prints an error for a person and exits. StepErrors get their hint; anything else its message only.
 * @param {unknown} error
 */
export function exitWithError(error) {
  if (error instanceof StepError) {
    process.stderr.write(`\nerror: ${error.message}\n`);
    if (error.hint) process.stderr.write(`hint: ${error.hint}\n`);
  } else {
    process.stderr.write(`\nerror: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
}
