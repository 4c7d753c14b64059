/**
 * The contract of the decoder module: `binast.js` (src/off-thread/client.ts, decoding in a Web Worker) or the
 * wasm-bindgen glue itself (decoding on the main thread); the loader awaits either result.
 */
interface DecoderModule {
  default(init: object): Promise<unknown>;
  decodeToJavaScript(bytes: Uint8Array): string | Promise<string>;
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
