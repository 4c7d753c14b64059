// Running decoded JavaScript from a Blob URL instead of inline text. The decoder's Worker hands the page a Blob, a
// handle to bytes it already holds, so the main thread never copies, stores or parses the source as a string: the
// browser loads the `blob:` URL like any external script, and V8 compiles it off the main thread as it would the
// plain file. An inline script is parsed and compiled on the main thread, synchronously, after the whole source
// string was copied to it (8.5–31 ms for d3, react-dom and babel, measured in bench:binast); a Blob costs neither.
import { cloneScript, insertFor } from '../execute';
import { blobScriptType } from './script-charset';

/**
 * Runs the classic script in `source` from a Blob URL next to the opt-in element it stands for. Resolves true once it
 * ran, false when it did not parse (nothing ran: V8 reports the SyntaxError before executing anything), undefined when
 * the page did not let it load (a CSP that allows the loader's inline scripts but not `blob:`, Trusted Types): the
 * caller then runs it inline.
 * `document.currentScript` is the inserted element, right after the opt-in one, with its attributes, and `src` and `id`
 * reading the opt-in element's, so code that finds its base path from `currentScript.src` (bundlers' public path)
 * still works.
 */
export function runBlob(
  original: HTMLScriptElement,
  url: string,
  nonce: string,
  source: Blob,
): Promise<boolean | undefined> {
  const script = cloneScript(original, false, nonce);
  // sourceURL names the original URL in stack traces and DevTools. The type keeps the charset of the source, which
  // the browser would otherwise read in the page's encoding (script-charset.ts).
  const blobUrl = URL.createObjectURL(new Blob([source, `\n//# sourceURL=${url}`], { type: blobScriptType(source) }));
  return new Promise((resolve) => {
    let parsed = true;
    // A SyntaxError is reported under the sourceURL when V8 reached the comment, else under the blob URL.
    const onError = (event: ErrorEvent) => {
      if ((event.filename === url || event.filename === blobUrl) && event.error instanceof SyntaxError) parsed = false;
    };
    const done = (outcome: boolean | undefined) => {
      removeEventListener('error', onError);
      URL.revokeObjectURL(blobUrl);
      resolve(outcome);
    };
    addEventListener('error', onError);
    script.onload = () => done(parsed);
    // A blocked load fires `error` on the element (and nothing ran).
    script.onerror = () => {
      script.remove();
      done(undefined);
    };
    try {
      // The attribute is what the browser fetches; the property is what the page's code reads.
      script.setAttribute('src', blobUrl);
      Object.defineProperty(script, 'src', { configurable: true, get: () => url });
      Object.defineProperty(script, 'id', { configurable: true, get: () => original.id });
      insertFor(original, script);
    } catch {
      // Trusted Types refuse a plain string as a script URL.
      done(undefined);
    }
  });
}
