// The Worker's codec modules: wrangler bundles each `.wasm` import as a compiled WebAssembly.Module.
import avifDecode from '@jsquash/avif/codec/dec/avif_dec.wasm';
import avifEncode from '@jsquash/avif/codec/enc/avif_enc.wasm';
import jpegDecode from '@jsquash/jpeg/codec/dec/mozjpeg_dec.wasm';
import jpegEncode from '@jsquash/jpeg/codec/enc/mozjpeg_enc.wasm';
// @ts-expect-error -- wasm-bindgen ships a .wasm.d.ts of raw exports; wrangler's import gives a Module (wasm.d.ts)
import png from '@jsquash/png/codec/pkg/squoosh_png_bg.wasm';
// @ts-expect-error -- same as above: wrangler's CompiledWasm import is a WebAssembly.Module
import resize from '@jsquash/resize/lib/resize/pkg/squoosh_resize_bg.wasm';
import webpDecode from '@jsquash/webp/codec/dec/webp_dec.wasm';
import webpEncode from '@jsquash/webp/codec/enc/webp_enc_simd.wasm';
import { type CodecModules, initCodecs } from './codecs';

const workerCodecModules: CodecModules = {
  avifDecode,
  avifEncode,
  jpegDecode,
  jpegEncode,
  png,
  resize,
  webpDecode,
  webpEncode,
};

/** Initialises the codecs with the bundled modules (once per isolate). */
export const ensureCodecs = () => initCodecs(workerCodecModules);
