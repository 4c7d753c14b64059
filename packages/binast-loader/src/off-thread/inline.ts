// Running decoded JavaScript with the semantics of the <script> it replaces, and the environment probe that decides
// beforehand whether the page allows it. Part of the decoder module (binast.js), so pages that never use BinaryAST
// never download it.
import { cloneScript, insertFor } from '../execute';

/**
 * Runs decoded `source` inline next to the opt-in element it stands for.
 * Resolves false when nothing ran: the source did not parse (a SyntaxError is
 * reported on window before anything executes, so falling back to the plain script does not run code twice).
 * Classic inline scripts run synchronously on insertion, and for that time `document.currentScript` is the opt-in
 * element (its `src`, `dataset` and `id` are what the code expects). Inline modules have no currentScript, as in
 * browsers, and fire no `load` (Chromium), so their source ends by dispatching a per-URL event on window.
 */
export function runInline(
  original: HTMLScriptElement,
  url: string,
  module: boolean,
  nonce: string,
  source: string,
): Promise<boolean> {
  const script = cloneScript(original, module, nonce);
  const insert = () => insertFor(original, script);
  return new Promise<boolean>((resolve) => {
    const signal = `binast:${url}`;
    let ok = true;
    const done = () => {
      removeEventListener('error', onError);
      removeEventListener(signal, done);
      // Inline text can be megabytes; the element has done its job once it ran.
      script.remove();
      resolve(ok);
    };
    // Errors of inline scripts are reported on window: synchronously for classic ones, named by sourceURL for modules.
    const onError = (event: ErrorEvent) => {
      if (module && event.filename !== url) return;
      ok = !(event.error instanceof SyntaxError);
      if (module) done();
    };
    addEventListener('error', onError);
    // sourceURL makes stack traces and DevTools name the original URL instead of the page.
    const end = module ? `;dispatchEvent(new Event(${JSON.stringify(signal)}))` : '';
    script.text = `${source}\n${end}\n//# sourceURL=${url}`;
    if (module) {
      addEventListener(signal, done);
      insert();
      return;
    }
    const restore = shadowDocument({
      currentScript: { get: () => original },
      // A parser-blocking script's document.write inserts in place; this one runs after the parser, where a write
      // opens a new document: the whole page was replaced by what the script wrote (seen in Chromium), and the
      // scripts after it ran in an empty page. A script the loader runs from a URL (plain or `blob:`) has its writes
      // ignored by the browser, with a warning; this does the same.
      write: { value: ignoredWrite(url) },
      writeln: { value: ignoredWrite(url) },
    });
    try {
      insert();
    } finally {
      restore();
      done();
    }
  });
}

/** What the browser says when a script it did not insert through the parser calls document.write. */
const ignoredWrite = (url: string) => () =>
  console.warn(`document.write from ${url} ignored: the BinaryAST loader ran it after the page was parsed`);

/**
 * Gives `document` own properties for as long as one script runs; returns the function that puts back what was there
 * (the prototype's, or the page's own: a library may have replaced document.write itself).
 */
function shadowDocument(properties: Record<string, PropertyDescriptor>): () => void {
  const before = Object.entries(properties).map(([name, descriptor]) => {
    const own = Object.getOwnPropertyDescriptor(document, name);
    Object.defineProperty(document, name, { configurable: true, ...descriptor });
    return [name, own] as const;
  });
  return () => {
    for (const [name, own] of before) {
      delete (document as unknown as Record<string, unknown>)[name];
      if (own) Object.defineProperty(document, name, own);
    }
  };
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
