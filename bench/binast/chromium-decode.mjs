// Decode + regenerate speed of the browser's decoder (the decode-only build the loader ships, wasm/binast/pkg/decode)
// in Debian Chromium, in a dedicated Web Worker as the loader's goal describes. Files are served to the page through
// Playwright's request routing (no server, no network): the glue, the Wasm, and each encoding.
import { withDecoderPage } from './decoder-page.mjs';

/**
 * Median milliseconds to decode each encoding to JavaScript in a Web Worker, over `runs` runs (after one warm-up).
 * What the page's main thread pays is measured separately (main-thread.mjs).
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 * @param {number} runs
 * @returns {Promise<Record<string, { ms: number, outputChars: number }>>}
 */
export async function chromiumDecodeMs(encodings, runs) {
  const files = new Map(
    [...encodings].map(([name, bytes]) => [
      `/${name}.binjs`,
      { body: Buffer.from(bytes), type: 'application/octet-stream' },
    ]),
  );
  return withDecoderPage({ title: 'decode bench', workerSource: workerSource(runs), files }, async (page) => {
    /** @type {Record<string, { ms: number, outputChars: number }>} */
    const results = await page.evaluate(
      (names) =>
        new Promise((resolve, reject) => {
          const worker = new Worker('/worker.js', { type: 'module' });
          worker.onmessage = (event) => resolve(event.data);
          worker.onerror = (event) => reject(new Error(event.message));
          worker.postMessage(names);
        }),
      [...encodings.keys()],
    );
    return results;
  });
}

/**
 * The worker: instantiate the decoder once, then time each file.
 * @param {number} runs
 */
function workerSource(runs) {
  return `import init, { decodeToJavaScript } from '/binast.js';
const ready = init({});
onmessage = async (event) => {
  await ready;
  const results = {};
  for (const name of event.data) {
    const bytes = new Uint8Array(await (await fetch('/' + name + '.binjs')).arrayBuffer());
    let outputChars = decodeToJavaScript(bytes).length;
    const samples = [];
    for (let i = 0; i < ${runs}; i++) {
      const start = performance.now();
      outputChars = decodeToJavaScript(bytes).length;
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    results[name] = { ms: samples[Math.floor(samples.length / 2)], outputChars };
  }
  postMessage(results);
};
`;
}
