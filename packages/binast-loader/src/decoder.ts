/** The contract of the wasm-pack (`--target web`) build of wasm/binast that the loader needs. */
interface DecoderModule {
  default(init: object): Promise<unknown>;
  decodeToJavaScript(bytes: Uint8Array): string;
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
    // Given no path, wasm-pack's glue fetches `binast_bg.wasm` beside itself (import.meta.url).
    await decoder.default({});
    return decoder.decodeToJavaScript;
  })();
  return pending;
}
