import { measure } from './record';

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
    const startMs = performance.now();
    const decoder = (await import(/* @vite-ignore */ moduleUrl)) as DecoderModule;
    // Given no path, wasm-pack's glue fetches `binast_bg.wasm` beside itself (import.meta.url).
    await decoder.default({});
    measure('binast:decoder', startMs, moduleUrl);
    return decoder.decodeToJavaScript;
  })();
  return pending;
}

/** Compiling the smallest valid module tells, synchronously, whether WebAssembly exists and CSP lets it compile. */
export function wasmUsable(): boolean {
  try {
    return !!new WebAssembly.Module(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0));
  } catch {
    return false;
  }
}
