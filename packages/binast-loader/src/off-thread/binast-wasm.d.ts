// Types of the decode-only build's JavaScript interface, copied beside the decoder as `binast-wasm.js`
// (wasm/binast/pkg/decode/binast.js, from wasm/binast/js/decode.js).
export { decodeStream, decodesWhileDownloading, default } from '../../../../wasm/binast/js/decode.js';
