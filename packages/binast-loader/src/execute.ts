// DOM side of execution: how a script finally runs (decoded source inline, or the plain `<script src>` fallback),
// and the shims that keep `document.currentScript` and late DOMContentLoaded/load listeners working.

/**
 * Attributes of the opt-in element that must not be copied to the script that runs (the rest, e.g. data-*, nonce,
 * crossorigin, integrity, is): handlers would fire twice, ids would clash. async/defer do not matter on inserted
 * scripts, which the scheduler orders.
 */
const ownAttributes = ['type', 'src', 'onload', 'onerror', 'id'];

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

/**
 * Runs the script the opt-in element stands for, next to it: `source` inline when given, else the plain `src`.
 * Resolves false when nothing ran: the plain script fired `error`, or the source did not parse (a SyntaxError is
 * reported on window before anything executes, so falling back to the plain script does not run code twice).
 * Classic inline scripts run synchronously on insertion, and for that time `document.currentScript` is the opt-in
 * element (its `src`, `dataset` and `id` are what the code expects). Inline modules have no currentScript, as in
 * browsers, and fire no `load` (Chromium), so their source ends by dispatching a per-URL event on window.
 */
export function runScript(
  original: HTMLScriptElement,
  url: string,
  module: boolean,
  nonce: string,
  source?: string,
): Promise<boolean> {
  const script = document.createElement('script');
  for (const { name, value } of original.attributes)
    if (!ownAttributes.includes(name)) script.setAttribute(name, value);
  script.nonce = nonce;
  if (module) script.type = 'module';
  const insert = () => (original.isConnected ? original.after(script) : document.head.append(script));
  return new Promise<boolean>((resolve) => {
    const signal = `binast:${url}`;
    let ok = true;
    const done = () => {
      removeEventListener('error', onError);
      removeEventListener(signal, done);
      // Inline text can be megabytes; the element has done its job once it ran.
      if (source) script.remove();
      resolve(ok);
    };
    // Errors of inline scripts are reported on window: synchronously for classic ones, named by sourceURL for modules.
    const onError = (event: ErrorEvent) => {
      if (module && event.filename !== url) return;
      ok = !(event.error instanceof SyntaxError);
      if (module) done();
    };
    if (source === undefined) {
      // Inserted scripts are async by default; the scheduler orders them, so they may load in any order.
      script.src = url;
      script.onload = script.onerror = (event) => {
        ok = (event as Event).type === 'load';
        done();
      };
      insert();
      return;
    }
    addEventListener('error', onError);
    // sourceURL makes stack traces and DevTools name the original URL instead of the page.
    const end = module ? `;dispatchEvent(new Event(${JSON.stringify(signal)}))` : '';
    script.text = `${source}\n${end}\n//# sourceURL=${url}`;
    if (module) {
      addEventListener(signal, done);
      insert();
      return;
    }
    Object.defineProperty(document, 'currentScript', { configurable: true, get: () => original });
    try {
      insert();
    } finally {
      delete (document as { currentScript?: unknown }).currentScript;
      done();
    }
  });
}

/**
 * Checks, once and before any fetch, what the page lets the loader do, so a page that cannot use BinaryAST downloads
 * nothing twice: a probe inline script (with the loader's nonce) marks itself when it runs (`csp-inline` if it does
 * not: CSP or Trusted Types block inline scripts), then when it compiled the smallest Wasm module (`no-wasm` if not:
 * WebAssembly missing, or CSP without 'wasm-unsafe-eval'). '' when both work.
 */
export function probeEnvironment(nonce: string): '' | 'csp-inline' | 'no-wasm' {
  const probe = document.createElement('script');
  probe.nonce = nonce;
  try {
    // Throws under Trusted Types, which blocks inline source just like CSP does.
    probe.text =
      '(s=>{s.id=1;try{new WebAssembly.Module(Uint8Array.of(0,97,115,109,1,0,0,0));s.id=2}catch{}})(document.currentScript)';
    document.head.append(probe);
  } catch {}
  probe.remove();
  return probe.id === '2' ? '' : probe.id ? 'no-wasm' : 'csp-inline';
}
