// DOM side of execution in the loader itself: the plain `<script src>` that stands in for an opt-in element, and the
// shim that keeps late DOMContentLoaded/load listeners working. Running decoded source inline lives with the decoder
// (off-thread/inline.ts), fetched only when BinaryAST is used.

/**
 * Attributes of the opt-in element that must not be copied to the script that runs (the rest, e.g. other data-*,
 * nonce, crossorigin, integrity, is): handlers would fire twice, ids would clash, and a size hint would make the loader
 * take the copy for a plain script the Worker wrote back (loader.ts). async/defer do not matter on inserted scripts,
 * which the scheduler orders.
 */
const ownAttributes = /^(type|src|id|onload|onerror|data-binast-size)$/;

/** A script element standing in for `original`: its attributes (but `ownAttributes`), the nonce, module type. */
export function cloneScript(original: HTMLScriptElement, module: boolean, nonce: string): HTMLScriptElement {
  const script = document.createElement('script');
  for (const { name, value } of original.attributes) if (!ownAttributes.test(name)) script.setAttribute(name, value);
  script.nonce = nonce;
  if (module) script.type = 'module';
  return script;
}

/** Inserts `script` right after the opt-in element (in <head> when the element was removed meanwhile). */
export const insertFor = (original: HTMLScriptElement, script: HTMLScriptElement) =>
  original.isConnected ? original.after(script) : document.head.append(script);

/**
 * Runs the plain `src` of the opt-in element next to it; resolves with whether it fired `load` (false: `error`).
 * Inserted scripts are async by default: right when the scheduler says it is their turn. `inOrder` (async=false)
 * runs them in insertion order as soon as each has loaded, as the parser runs blocking ones.
 */
export function runPlain(
  original: HTMLScriptElement,
  url: string,
  module: boolean,
  nonce: string,
  inOrder?: boolean,
): Promise<boolean> {
  const script = cloneScript(original, module, nonce);
  script.async = !inOrder;
  script.src = url;
  return new Promise((resolve) => {
    script.onload = script.onerror = (event) => resolve((event as Event).type === 'load');
    insertFor(original, script);
  });
}

/**
 * Until the loader's scripts have run, listeners added for events that already fired (DOMContentLoaded on document or
 * window, window `load`) are called once on the next task instead of never: as plain blocking scripts, the loader's
 * scripts would have added them in time. Returns the function that removes the patch.
 */
export function patchLateListeners(): () => void {
  const targets = [document, window];
  for (const target of targets) {
    // The inherited EventTarget method, kept before the own property shadows it.
    const native: EventTarget['addEventListener'] = target.addEventListener;
    target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: unknown) =>
      // Listener objects (handleEvent) are rare here and are left to the browser (they never fire late).
      typeof listener === 'function' &&
      // readyState leaves `loading` just before DOMContentLoaded: a listener added in between is called once, early.
      (type === 'DOMContentLoaded'
        ? document.readyState !== 'loading'
        : type === 'load' && target === window && document.readyState === 'complete')
        ? setTimeout(() => listener.call(target, new Event(type)))
        : native.call(target, type, listener, options as AddEventListenerOptions);
  }
  return () => {
    for (const target of targets) delete (target as { addEventListener?: unknown }).addEventListener;
  };
}
