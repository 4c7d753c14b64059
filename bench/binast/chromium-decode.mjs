// Decode + regenerate speed of the browser's decoder (the decode-only build the loader ships, wasm/binast/pkg/decode)
// in Debian Chromium, in a dedicated Web Worker as the loader's goal describes. Files are served to the page through
// Playwright's request routing (no server, no network): the glue, the Wasm, and each encoding.
import { askWorker, withDecoderPage } from './decoder-page.mjs';

/**
 * The page's files for `encodings`: each at `/<name>.binjs`.
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 */
const binjsFiles = (encodings) =>
  new Map(
    [...encodings].map(([name, bytes]) => [
      `/${name}.binjs`,
      { body: Buffer.from(bytes), type: 'application/octet-stream' },
    ]),
  );

/**
 * Median milliseconds to decode each encoding to JavaScript in a Web Worker, over `runs` runs (after one warm-up).
 * What the page's main thread pays is measured separately (main-thread.mjs).
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 * @param {number} runs
 * @param {URL} [decoder] the folder of the decoder's JavaScript and Wasm (default: this build's decode-only one), so
 *   two builds can be compared side by side in one run
 * @returns {Promise<Record<string, { ms: number, outputChars: number }>>}
 */
export async function chromiumDecodeMs(encodings, runs, decoder) {
  const files = binjsFiles(encodings);
  return withDecoderPage({ title: 'decode bench', workerSource: workerSource(runs), files, decoder }, (page) =>
    askWorker(page, [...encodings.keys()]),
  );
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

/**
 * Median milliseconds of each encoding's first decode in a freshly started browser, over `launches` launches: what a
 * page pays, since the loader decodes each script once, in a Worker whose module V8 compiled moments before with its
 * baseline compiler (Liftoff), moving hot functions to its optimising one (TurboFan) only while they run. The module
 * is compiled from its bytes, as the decoder's interface does (wasm/binast/js/decode.js), so no code cache serves
 * it either. `chromiumDecodeMs` is the steady state, after a warm-up decode.
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 * @param {number} launches
 * @returns {Promise<Record<string, { ms: number, outputChars: number }>>}
 */
export async function chromiumFirstDecodeMs(encodings, launches) {
  /** @type {Record<string, { ms: number, outputChars: number }>} */
  const results = {};
  for (const [name, bytes] of encodings) {
    const files = binjsFiles(new Map([[name, bytes]]));
    const samples = [];
    for (let launch = 0; launch < launches; launch++)
      samples.push(
        await withDecoderPage({ title: 'first decode', workerSource: firstDecodeWorker, files }, (page) =>
          askWorker(page, name),
        ),
      );
    samples.sort((a, b) => a.ms - b.ms);
    results[name] = samples[Math.floor(samples.length / 2)];
  }
  return results;
}

const firstDecodeWorker = `import init, { decodeToJavaScript } from '/binast.js';
const ready = init({});
onmessage = async ({ data: name }) => {
  await ready;
  const bytes = new Uint8Array(await (await fetch('/' + name + '.binjs')).arrayBuffer());
  const start = performance.now();
  const outputChars = decodeToJavaScript(bytes).length;
  postMessage({ ms: performance.now() - start, outputChars });
};
`;

/** The link the streaming measure paces each file over: 1.6 Mbit/s (the loader bench's slowest profile). */
const paceBytesPerMs = 200;
const pieceBytes = 16 * 1024;

/**
 * What decoding while the bytes arrive saves, per encoding: each file is handed to the decoder (in a Web Worker,
 * as the loader does) as a stream whose 16 KiB pieces arrive at 1.6 Mbit/s, and the figure is the time from the
 * last piece to the decoded source — once decoding as the pieces arrive (`decodeStream` with JavaScript Promise
 * Integration), once gathering the whole file first (what browsers without it do, and what the loader did before).
 * @param {Map<string, Uint8Array>} encodings name -> BinaryAST bytes
 * @returns {Promise<{ streams: boolean, tails: Record<string, { streamedTailMs: number, wholeTailMs: number }> }>}
 */
export async function chromiumStreamTailMs(encodings) {
  const files = binjsFiles(encodings);
  return withDecoderPage({ title: 'stream bench', workerSource: streamWorkerSource, files }, (page) =>
    askWorker(page, [...encodings.keys()]),
  );
}

const streamWorkerSource = `import init, { decodeStream, decodesWhileDownloading } from '/binast.js';
const ready = init({});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** Decodes bytes paced like a slow link; ms from the last piece to the source. */
async function tailMs(bytes, whileArriving) {
  let lastPieceAt = 0;
  const stream = new ReadableStream({
    async start(controller) {
      for (let at = 0; at < bytes.length; at += ${pieceBytes}) {
        const piece = bytes.slice(at, at + ${pieceBytes});
        await sleep(piece.length / ${paceBytesPerMs});
        controller.enqueue(piece);
      }
      lastPieceAt = performance.now();
      controller.close();
    },
  });
  await decodeStream(whileArriving ? stream : new Uint8Array(await new Response(stream).arrayBuffer()));
  return performance.now() - lastPieceAt;
}
onmessage = async (event) => {
  await ready;
  const tails = {};
  for (const name of event.data) {
    const bytes = new Uint8Array(await (await fetch('/' + name + '.binjs')).arrayBuffer());
    await decodeStream(bytes);
    tails[name] = { streamedTailMs: await tailMs(bytes, true), wholeTailMs: await tailMs(bytes, false) };
  }
  postMessage({ streams: decodesWhileDownloading, tails });
};
`;
