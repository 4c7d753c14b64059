// The decoder's Web Worker: instantiates the wasm-bindgen glue once, reports readiness (message id 0), then
// answers each { id, bytes } with { id, source } or { id, error }.
import init, { decodeToJavaScript } from './binast-wasm.js';

const ready = init({}).then(
  () => postMessage({ id: 0 }),
  (error: unknown) => postMessage({ id: 0, error: String(error) }),
);

addEventListener('message', async ({ data }: MessageEvent<{ id: number; bytes: Uint8Array }>) => {
  await ready;
  try {
    postMessage({ id: data.id, source: decodeToJavaScript(data.bytes) });
  } catch (error) {
    postMessage({ id: data.id, error: String(error) });
  }
});
