/** Whether `decodeStream` decodes while the bytes arrive (JavaScript Promise Integration), rather than at the end. */
export const decodesWhileDownloading: boolean;

/**
 * Compiles the decode-only module once: from a WebAssembly.Module, its bytes, a Response or a URL; by default
 * `binast_bg.wasm` beside this file.
 */
export default function init(options?: {
  module_or_path?: WebAssembly.Module | BufferSource | Response | Promise<Response> | URL | string;
}): Promise<void>;

/** Compiles the module now, from a WebAssembly.Module or its bytes. */
export function initSync(options: { module: WebAssembly.Module | BufferSource }): void;

/** BinaryAST (context layout) -> JavaScript source, all at once; throws an Error on corrupt or unknown input. */
export function decodeToJavaScript(bytes: Uint8Array): string;

/**
 * BinaryAST (context layout) -> JavaScript as UTF-8, decoding while `input` arrives where the browser can; rejects
 * with an Error on corrupt or unknown input.
 */
export function decodeStream(input: ReadableStream<Uint8Array> | Uint8Array): Promise<Uint8Array<ArrayBuffer>>;
