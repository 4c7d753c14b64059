/**
 * The contract of the decoder module, `binast.js` (src/off-thread/client.ts): `default` initialises it (a Web Worker,
 * or the Wasm on this thread where no Worker can start), `decodeToJavaScript` takes a BinaryAST response whose body
 * it has not read and resolves with the JavaScript source.
 */
interface DecoderModule {
  default(init: object): Promise<unknown>;
  decodeToJavaScript(response: Response): Promise<string>;
}

let pending: Promise<DecoderModule['decodeToJavaScript']> | undefined;

/**
 * Imports the decoder glue and instantiates its Wasm once per page, only when the first BinaryAST response arrives,
 * so pages whose scripts come back as JavaScript never pay for it. A failure is cached too: every later script falls
 * back at once instead of retrying a broken decoder. The browser's HTTP cache keeps both files across pages.
 */
export function loadDecoder(moduleUrl: string) {
  pending ??= (async () => {
    const decoder = (await import(/* @vite-ignore */ moduleUrl)) as DecoderModule;
    // Given no path, the glue fetches `binast_bg.wasm` beside itself (import.meta.url).
    await decoder.default({});
    return decoder.decodeToJavaScript;
  })();
  return pending;
}
