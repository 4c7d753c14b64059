// Decode + regenerate speed of the browser's decoder (the decode-only build the loader ships, wasm/binast/pkg/decode)
// in Debian Chromium, in a dedicated Web Worker as the loader's goal describes. Files are served to the page through
// Playwright's request routing (no server, no network): the glue, the Wasm, and each encoding.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../lib/chromium.mjs';

const decoderDir = new URL('.', import.meta.resolve('@speedkit/binast/decode'));
const origin = 'http://binast-bench.invalid';

/**
 * Median milliseconds to decode each encoding to JavaScript in a Web Worker, over `runs` runs (after one warm-up),
 * and the main thread's cost per script when it hands a response to the Worker as the loader does (its body
 * transferred as a stream) and takes the source back: Chromium's own busy time of the page's main thread
 * (DevTools `Performance.getMetrics` TaskDuration) over that exchange, minus the same exchange with an empty body
 * (the benchmark's own round trip). Compiling and running the script are left out: a plain script costs them too.
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 * @param {number} runs
 * @param {URL} [decoder] the folder of the decoder's glue and Wasm (default: this build's decode-only one), so
 *   two builds can be compared side by side in one run
 * @returns {Promise<Record<string, { ms: number, outputChars: number, mainThreadMs: number }>>}
 */
export async function chromiumDecodeMs(encodings, runs, decoder = decoderDir) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    const page = await browser.newPage();
    const files = new Map([
      ['/binast.js', { body: readFileSync(new URL('binast.js', decoder)), type: 'text/javascript' }],
      ['/binast_bg.wasm', { body: readFileSync(new URL('binast_bg.wasm', decoder)), type: 'application/wasm' }],
      ['/', { body: Buffer.from('<!doctype html><title>decode bench</title>'), type: 'text/html' }],
      ['/worker.js', { body: Buffer.from(workerSource(runs)), type: 'text/javascript' }],
    ]);
    files.set('/empty.binjs', { body: Buffer.alloc(0), type: 'application/octet-stream' });
    for (const [name, bytes] of encodings) {
      files.set(`/${name}.binjs`, { body: Buffer.from(bytes), type: 'application/octet-stream' });
    }
    await page.route(`${origin}/**`, (route) => {
      const file = files.get(new URL(route.request().url()).pathname);
      return file
        ? route.fulfill({ status: 200, body: file.body, contentType: file.type })
        : route.fulfill({ status: 404, body: 'not found' });
    });
    await page.goto(`${origin}/`);
    /** @type {Record<string, { ms: number, outputChars: number, mainThreadMs: number }>} */
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
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const busyMs = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0) * 1000;
    };
    await page.evaluate(() => {
      const worker = new Worker('/worker.js', { type: 'module' });
      /** @param {string} path */
      const exchange = async (path) => {
        const response = await fetch(path);
        const source = await new Promise((resolve) => {
          worker.onmessage = (event) => resolve(event.data);
          const body = /** @type {ReadableStream<Uint8Array>} */ (response.body);
          worker.postMessage({ body }, [body]);
        });
        // What the loader does with the source before inserting it (compiling is not counted).
        document.createElement('script').text = source;
        return source.length;
      };
      Object.assign(globalThis, { exchange });
    });
    /** @param {string} path */
    const mainThreadMs = async (path) => {
      const before = await busyMs();
      await page.evaluate((p) => /** @type {any} */ (globalThis).exchange(p), path);
      return (await busyMs()) - before;
    };
    for (const name of encodings.keys()) {
      const samples = [];
      await mainThreadMs(`/${name}.binjs`);
      for (let i = 0; i < runs; i++) {
        const empty = await mainThreadMs('/empty.binjs');
        samples.push((await mainThreadMs(`/${name}.binjs`)) - empty);
      }
      samples.sort((a, b) => a - b);
      const result = results[name];
      if (result) result.mainThreadMs = Math.max(0, samples[Math.floor(samples.length / 2)] ?? 0);
    }
    return results;
  } finally {
    await browser.close();
  }
}

/**
 * The worker: instantiate the decoder once, then time each file; afterwards it answers the main-thread exchanges
 * (a transferred body stream in, the source out; an empty body gives an empty source).
 * @param {number} runs
 */
function workerSource(runs) {
  return `import init, { decodeToJavaScript } from '/binast.js';
const ready = init({});
onmessage = async (event) => {
  await ready;
  if (event.data.body) {
    const bytes = new Uint8Array(await new Response(event.data.body).arrayBuffer());
    postMessage(bytes.length ? decodeToJavaScript(bytes) : '');
    return;
  }
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
