// The JavaScript interface of the decode-only build (what the loader ships), copied beside its module as
// pkg/decode/binast.js by build.mjs. The module has no wasm-bindgen glue: it imports `binast.read` (the file's next
// bytes) and `binast.number_text` (JavaScript's String(number)), and exports `binast_decode` (src/stream_api.rs).
// Each decode gets a fresh instance of the compiled module, so a trap or a half-done decode never reaches the next.
// Where the browser has JavaScript Promise Integration (WebAssembly.Suspending), `read` suspends the decoder until
// the next network chunk arrives: decoding starts on the first bytes and keeps pace with the download.

/** @type {WebAssembly.Module | undefined} */
let compiled;

/** Whether `decodeStream` decodes while the bytes arrive (JSPI), rather than once the last one is in. */
export const decodesWhileDownloading =
  typeof WebAssembly.Suspending === 'function' && typeof WebAssembly.promising === 'function';

/**
 * Compiles the module, once: from `module` (a WebAssembly.Module, its bytes, a Response or a URL), by default
 * `binast_bg.wasm` beside this file.
 * @param {{ module_or_path?: WebAssembly.Module | BufferSource | Response | Promise<Response> | URL | string }} [options]
 */
export default async function init(options = {}) {
  if (compiled) return;
  let source = options.module_or_path ?? new URL('binast_bg.wasm', import.meta.url);
  if (typeof source === 'string' || source instanceof URL) source = fetch(source);
  source = await source;
  if (source instanceof WebAssembly.Module) compiled = source;
  else if (source instanceof Response) {
    if (!source.ok) throw new Error(`binast_bg.wasm: HTTP ${source.status}`);
    compiled = await WebAssembly.compile(await source.arrayBuffer());
  } else compiled = await WebAssembly.compile(source);
}

/**
 * Compiles the module now, from a WebAssembly.Module or its bytes (Node, tests).
 * @param {{ module: WebAssembly.Module | BufferSource }} options
 */
export function initSync({ module }) {
  compiled = module instanceof WebAssembly.Module ? module : new WebAssembly.Module(module);
}

/**
 * BinaryAST (context layout) -> JavaScript source, all at once. Throws an Error on corrupt or unknown input.
 * Instantiates synchronously: for Node and Workers (a page's main thread should use `decodeStream`).
 * @param {Uint8Array} bytes
 * @returns {string}
 */
export function decodeToJavaScript(bytes) {
  const decoder = decoderImports(fromBytes(bytes), false);
  const decode = decoder.attach(new WebAssembly.Instance(compiledModule(), decoder.imports));
  return new TextDecoder().decode(decoder.outcome(decode()));
}

/**
 * BinaryAST (context layout) -> JavaScript source as UTF-8 bytes, decoding while `input` arrives where the browser
 * can (`decodesWhileDownloading`), else once it has all of it. Rejects with an Error on corrupt or unknown input.
 * @param {ReadableStream<Uint8Array> | Uint8Array} input
 * @returns {Promise<Uint8Array>}
 */
export async function decodeStream(input) {
  if (input instanceof Uint8Array || !decodesWhileDownloading) {
    const bytes = input instanceof Uint8Array ? input : new Uint8Array(await new Response(input).arrayBuffer());
    const decoder = decoderImports(fromBytes(bytes), false);
    const decode = decoder.attach(await WebAssembly.instantiate(compiledModule(), decoder.imports));
    return decoder.outcome(decode());
  }
  const reader = input.getReader();
  let pending = new Uint8Array(0);
  /** @type {Read} */
  const read = async (memory, at, capacity) => {
    while (pending.length === 0) {
      const chunk = await reader.read();
      if (chunk.done) return 0;
      pending = chunk.value;
    }
    const length = Math.min(capacity, pending.length);
    // A view made after the wait: the decoder is suspended, so memory cannot have grown under it.
    new Uint8Array(memory.buffer, at, length).set(pending.subarray(0, length));
    pending = pending.subarray(length);
    return length;
  };
  try {
    const decoder = decoderImports(read, true);
    const decode = decoder.attach(await WebAssembly.instantiate(compiledModule(), decoder.imports));
    return decoder.outcome(await WebAssembly.promising(decode)());
  } finally {
    // Whatever the decoder left unread (an error before the end) is not downloaded any further.
    reader.cancel().catch(() => {});
  }
}

/** @returns {WebAssembly.Module} */
function compiledModule() {
  if (!compiled) throw new Error('binast decoder not initialised: call init() or initSync() first');
  return compiled;
}

/** @typedef {(memory: WebAssembly.Memory, at: number, capacity: number) => number | Promise<number>} Read */

/**
 * A `read` import serving `bytes`.
 * @param {Uint8Array} bytes
 * @returns {Read}
 */
function fromBytes(bytes) {
  let offset = 0;
  return (memory, at, capacity) => {
    const length = Math.min(capacity, bytes.length - offset);
    new Uint8Array(memory.buffer, at, length).set(bytes.subarray(offset, offset + length));
    offset += length;
    return length;
  };
}

/**
 * The imports of one decoding instance, its `read` suspending when `suspend`, and how to read its outcome.
 * @param {Read} read
 * @param {boolean} suspend
 */
function decoderImports(read, suspend) {
  /** @type {WebAssembly.Memory | undefined} */
  let memory;
  const memoryOf = () => /** @type {WebAssembly.Memory} */ (memory);
  /** @param {number} at @param {number} capacity */
  const readImport = (at, capacity) => read(memoryOf(), at, capacity);
  const imports = {
    binast: {
      read: suspend ? new WebAssembly.Suspending(readImport) : readImport,
      /** @param {number} value @param {number} at @param {number} capacity */
      number_text(value, at, capacity) {
        const text = String(value);
        const length = Math.min(text.length, capacity);
        const out = new Uint8Array(memoryOf().buffer, at, length);
        for (let i = 0; i < length; i++) out[i] = text.charCodeAt(i);
        return length;
      },
    },
  };
  return {
    imports,
    /**
     * Takes the instance made with `imports` and returns its `binast_decode`.
     * @param {WebAssembly.Instance} instance
     */
    attach(instance) {
      memory = /** @type {WebAssembly.Memory} */ (instance.exports.memory);
      return /** @type {() => number} */ (instance.exports.binast_decode);
    },
    /**
     * The decoded JavaScript (UTF-8, copied out of the instance), or the decoder's error thrown.
     * @param {number} at where `binast_decode` put its outcome: status (0 = JavaScript), text address, length
     */
    outcome(at) {
      const [status, textAt, length] = new Uint32Array(memoryOf().buffer, at, 3);
      const text = new Uint8Array(memoryOf().buffer, textAt, length).slice();
      if (status !== 0) throw new Error(new TextDecoder().decode(text));
      return text;
    },
  };
}
