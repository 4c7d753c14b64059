// A decoded script can run after the window's load event: its BinaryAST download and decode do not delay that event
// as a plain `<script src>` does. The loader already calls `addEventListener('load', …)` listeners added late
// (execute.ts `patchLateListeners`), but `window.onload = init`, the way many older sites start their code, is a
// property: set after the event, it was never called (seen in Chromium on pages whose scripts went to BinaryAST),
// where the plain page calls it once.

/**
 * Runs `run` (one script's execution) and, when the window had loaded before it and the script set a new
 * `window.onload` (or `<body onload>`, the same handler), calls that handler once on the next task, as the load event
 * would have on the plain page.
 */
export async function withLateOnload<T>(run: () => Promise<T>): Promise<T> {
  // readyState turns `complete` in the same task that fires `load`: seen from another task, the event is over.
  const loaded = document.readyState === 'complete';
  const before = window.onload;
  const result = await run();
  const handler = window.onload;
  if (loaded && typeof handler === 'function' && handler !== before)
    setTimeout(() => handler.call(window, new Event('load')));
  return result;
}
