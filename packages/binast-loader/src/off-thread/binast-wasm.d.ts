// Types of the wasm-bindgen glue copied beside the decoder as `binast-wasm.js` (wasm/binast/pkg/decode/binast.js).
export default function init(options: object): Promise<unknown>;
export function decodeToJavaScript(bytes: Uint8Array): string;
/** Replaces the Wasm instance with a fresh one (wasm-bindgen `--experimental-reset-state-function`). */
export function __wbg_reset_state(): void;
