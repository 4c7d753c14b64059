// The png and resize codecs are Rust crates built with wasm-bindgen. Their generated glue keeps the one instance it
// makes in module state and never makes another (`if (wasm !== undefined) return wasm`), and jSquash caches the
// glue's first init promise, rejected or not. A Rust panic is a trap and a `throw_str` a JS throw out of Wasm: neither
// runs the Rust epilogues, so the shadow stack pointer stays lowered by the failed call's frame and the input buffer
// it owned is never freed. Every corrupt PNG would leave the isolate's only png instance a little more broken, for
// every later request. So the same compiled modules are instantiated here, with the few imports their glue gives
// them, as often as `codecs.ts` wants a fresh instance: after any failure, after a large image, after a failed start.

import type { Pixels } from '../core/pixels';

type Exports = Record<string, unknown> & { readonly memory: WebAssembly.Memory };
type Call = (...args: number[]) => number;

/** wasm-bindgen's table of JS values handed to Wasm: indices below 132 are fixed (undefined, null, true, false). */
class HeldObjects {
  readonly #slots: unknown[] = [...new Array(128).fill(undefined), undefined, null, true, false];
  #next = this.#slots.length;

  add(value: unknown): number {
    if (this.#next === this.#slots.length) this.#slots.push(this.#slots.length + 1);
    const index = this.#next;
    this.#next = this.#slots[index] as number;
    this.#slots[index] = value;
    return index;
  }

  get = (index: number): unknown => this.#slots[index];

  take(index: number): unknown {
    const value = this.#slots[index];
    if (index >= 132) {
      this.#slots[index] = this.#next;
      this.#next = index;
    }
    return value;
  }
}

/** One instance of a wasm-bindgen module and the helpers its exports need. */
class BindgenInstance {
  readonly objects = new HeldObjects();
  #exports: Exports | undefined;

  get exports(): Exports {
    if (!this.#exports) throw new Error('wasm-bindgen instance used before it was started');
    return this.#exports;
  }

  call = (name: string, ...args: number[]): number => (this.exports[name] as Call)(...args);
  bytes = (pointer: number, length: number) => new Uint8Array(this.exports.memory.buffer, pointer >>> 0, length);

  /** Copies `data` into memory the module owns (it frees it, or keeps it: wasm-bindgen's contract). */
  pass(data: Uint8Array): [number, number] {
    const pointer = this.call('__wbindgen_malloc', data.length, 1) >>> 0;
    this.bytes(pointer, data.length).set(data);
    return [pointer, data.length];
  }

  /** Runs an export that returns a `Vec<u8>` through a 16-byte return area on the shadow stack; the bytes copied out. */
  returningVec(name: string, ...args: number[]): Uint8Array {
    const area = this.call('__wbindgen_add_to_stack_pointer', -16);
    try {
      this.call(name, area, ...args);
      const [pointer = 0, length = 0] = new Int32Array(this.exports.memory.buffer, area, 2);
      const copy = this.bytes(pointer, length).slice();
      this.call('__wbindgen_free', pointer, length, 1);
      return copy;
    } finally {
      this.call('__wbindgen_add_to_stack_pointer', 16);
    }
  }

  /**
   * The imports the glue of squoosh_png and squoosh_resize provides, found by name (wasm-bindgen appends a hash to
   * some). An import this does not know means another build than the one read: starting fails, nothing is guessed.
   */
  imports(module: WebAssembly.Module): WebAssembly.Imports {
    const { objects } = this;
    const known: Record<string, (...args: number[]) => unknown> = {
      __wbindgen_memory: () => objects.add(this.exports.memory),
      __wbg_buffer_: (held) => objects.add((objects.get(held) as WebAssembly.Memory).buffer),
      __wbg_newwithbyteoffsetandlength_: (buffer, offset, length) =>
        objects.add(new Uint16Array(objects.get(buffer) as ArrayBuffer, offset >>> 0, length >>> 0)),
      __wbindgen_object_drop_ref: (held) => {
        objects.take(held);
      },
      __wbg_newwithownedu8clampedarrayandsh_: (pointer, length, width, height) => {
        const data = new Uint8ClampedArray(this.bytes(pointer, length));
        this.call('__wbindgen_free', pointer, length, 1);
        return objects.add({ data, width: width >>> 0, height: height >>> 0 });
      },
      __wbindgen_throw: (pointer, length) => {
        throw new Error(new TextDecoder().decode(this.bytes(pointer, length)));
      },
    };
    const wbg: Record<string, (...args: number[]) => unknown> = {};
    for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
      const entry = Object.entries(known).find(([prefix]) => name === prefix || name.startsWith(prefix));
      if (from !== 'wbg' || kind !== 'function' || !entry) throw new Error(`unexpected wasm-bindgen import ${name}`);
      wbg[name] = entry[1];
    }
    return { wbg };
  }

  async start(module: WebAssembly.Module): Promise<this> {
    const instance = await WebAssembly.instantiate(module, this.imports(module));
    this.#exports = instance.exports as Exports;
    return this;
  }
}

/** The png crate: 8-bit RGBA in and out (jSquash's `decode` and `encode` at bit depth 8). */
export interface PngCodec {
  decode(bytes: Uint8Array): Pixels;
  encode(pixels: Pixels): Uint8Array;
}

export async function startPng(module: WebAssembly.Module): Promise<PngCodec> {
  const png = await new BindgenInstance().start(module);
  return {
    decode(bytes) {
      const held = png.call('decode', ...png.pass(bytes));
      const image = png.objects.take(held) as Pixels | undefined;
      if (!image?.data) throw new Error('PNG decoder returned nothing');
      return image;
    },
    encode(pixels) {
      const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
      return png.returningVec('encode', ...png.pass(data), pixels.width, pixels.height, 8);
    },
  };
}

/** The resize crate: Lanczos3 with premultiplied alpha in linear light (jSquash's and Squoosh's defaults). */
export interface ResizeCodec {
  resize(pixels: Pixels, width: number, height: number): Pixels;
}

/** jSquash's method index for `lanczos3` ('triangle', 'catrom', 'mitchell', 'lanczos3'). */
const lanczos3 = 3;

export async function startResize(module: WebAssembly.Module): Promise<ResizeCodec> {
  const resizer = await new BindgenInstance().start(module);
  return {
    resize(pixels, width, height) {
      const data = new Uint8Array(pixels.data.buffer, pixels.data.byteOffset, pixels.data.byteLength);
      const input = resizer.pass(data);
      const out = resizer.returningVec('resize', ...input, pixels.width, pixels.height, width, height, lanczos3, 1, 1);
      return { data: new Uint8ClampedArray(out.buffer, out.byteOffset, out.byteLength), width, height };
    },
  };
}
