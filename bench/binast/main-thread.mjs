// What running a script through the loader's BinaryAST path costs the page's main thread, beyond what the plain
// `<script src>` of the same library costs it, in Debian Chromium: issue #17 asks for at most 5 ms per script.
// Three ways to run each library, interleaved run by run, each on a fresh copy of the source (a unique trailing
// comment, so no V8 cache serves a later run):
//   plain   `<script src>` of the minified library, fetched over the (routed) network: V8 streams its compile
//   blob    the decoder's Worker decodes the BinaryAST and posts a Blob, the page runs it from a `blob:` URL
//           (packages/binast-loader/src/off-thread/blob-script.ts): the loader's way for large scripts
//   inline  the Worker posts the Blob too, the page reads its text and runs it inline: the loader's way for small ones
// Both BinaryAST ways also do the loader's Cache Storage work for decoded copies
// (packages/binast-loader/src/off-thread/decoded-cache.ts): while the BinaryAST downloads, the page lists the
// versions of the script stored (from the second run on, an older one: a new deploy of a script whose URL stays the
// same), finds the response's version not among them and reads nothing back; once the page says the script ran,
// the Worker stores the new copy, outside the measured window (the bench waits for it between runs).
// Each figure is Chromium's own busy time of the page's main thread (DevTools `Performance.getMetrics`
// TaskDuration) from starting the load to the script's end; the library's execution is in all three, so the
// differences are what the path adds. `loaderWay` names the way the loader takes for the library's decoded size
// (packages/binast-loader/src/off-thread/run-way.ts): its figures are what the goal is about.
import { runsFromBlob } from '@speedkit/binast-loader/run-way';
import { withDecoderPage } from './decoder-page.mjs';
import { decodeToJavaScript } from './wasm.mjs';

/** @typedef {'plain' | 'blob' | 'inline'} Way */
const ways = /** @type {const} */ (['plain', 'blob', 'inline']);

/**
 * Median main-thread ms of each way, and what blob and inline add to plain, per library: the difference of the
 * medians (`…AddedMs`), and the median with the quartiles of each run's own difference against the plain run just
 * before it (`…PairedMs`: [lower quartile, median, upper quartile]), which a load that drifts during the run
 * shifts less.
 * @param {Map<string, { source: string, binast: Uint8Array }>} libraries name -> minified source and its encoding
 * @param {number} runs
 * @returns {Promise<Record<string, MainThreadCost>>}
 */
export async function mainThreadCost(libraries, runs) {
  const files = new Map();
  for (const [name, { source, binast }] of libraries) {
    files.set(`/${name}.js`, { body: Buffer.from(source), type: 'text/javascript' });
    files.set(`/${name}.binjs`, { body: Buffer.from(binast), type: 'application/octet-stream' });
  }
  return withDecoderPage({ title: 'main-thread bench', workerSource, files }, async (page) => {
    await page.evaluate(pageSide);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const busyMs = async () => {
      const { metrics } = await cdp.send('Performance.getMetrics');
      return (metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0) * 1000;
    };
    /** @type {Record<string, MainThreadCost>} */
    const results = {};
    let copy = 0;
    for (const name of libraries.keys()) {
      /** @type {Record<Way, number[]>} */
      const samples = { plain: [], blob: [], inline: [] };
      for (let run = 0; run <= runs; run++) {
        for (const way of ways) {
          const before = await busyMs();
          await page.evaluate(([w, n, c]) => /** @type {any} */ (globalThis).runLibrary(w, n, c), [way, name, ++copy]);
          // The first round warms the decoder and the page up: not counted.
          if (run > 0) samples[way].push((await busyMs()) - before);
          await page.evaluate(() => /** @type {any} */ (globalThis).storedCopy());
        }
      }
      const plainMs = median(samples.plain);
      const paired = (/** @type {number[]} */ values) =>
        quartiles(values.map((ms, run) => ms - (samples.plain[run] ?? 0)));
      const decoded = decodeToJavaScript(/** @type {Uint8Array} */ (libraries.get(name)?.binast));
      results[name] = {
        plainMs,
        blobAddedMs: median(samples.blob) - plainMs,
        inlineAddedMs: median(samples.inline) - plainMs,
        blobPairedMs: paired(samples.blob),
        inlinePairedMs: paired(samples.inline),
        loaderWay: runsFromBlob(Buffer.byteLength(decoded), false) ? 'blob' : 'inline',
      };
    }
    return results;
  });
}

/**
 * @typedef {{ plainMs: number, blobAddedMs: number, inlineAddedMs: number,
 *   blobPairedMs: [number, number, number], inlinePairedMs: [number, number, number],
 *   loaderWay: 'blob' | 'inline' }} MainThreadCost
 */

/** @param {number[]} values */
const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** Lower quartile, median and upper quartile (nearest rank). @param {number[]} values @returns {[number, number, number]} */
function quartiles(values) {
  const sorted = values.toSorted((a, b) => a - b);
  const at = (/** @type {number} */ share) =>
    sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
  return [at(0.25), at(0.5), at(0.75)];
}

// The decoder's Worker as the loader runs it: the BinaryAST body streams in, a Blob goes out; once
// the page says the script ran, the decoded copy goes to Cache Storage (one entry per script: older ones go first).
const workerSource = `import init, { decodeToJavaScript } from '/binast.js';
const ready = init({});
let toKeep;
onmessage = async ({ data }) => {
  if (data.keep) {
    const cache = await caches.open('binast-decoded-v1');
    for (const old of await cache.keys(toKeep.url, { ignoreSearch: true })) await cache.delete(old);
    await cache.put(toKeep.url + '?binast-etag=' + data.keep, new Response(toKeep.blob));
    postMessage('kept');
    return;
  }
  await ready;
  const bytes = new Uint8Array(await new Response(data.body).arrayBuffer());
  const source = decodeToJavaScript(bytes) + '\\n//' + data.copy;
  const blob = new Blob([source], { type: 'text/javascript' });
  postMessage(blob);
  toKeep = { url: data.url, blob };
};
`;

/** Runs in the page: `runLibrary(way, name, copy)` resolves once the library ran. */
function pageSide() {
  const worker = new Worker('/worker.js', { type: 'module' });
  /** @param {HTMLScriptElement} script */
  const loaded = (script) =>
    new Promise((resolve) => {
      script.onload = script.onerror = resolve;
      document.head.append(script);
    });
  /** @param {'plain' | 'blob' | 'inline'} way @param {string} name @param {number} copy */
  const runLibrary = async (way, name, copy) => {
    const script = document.createElement('script');
    if (way === 'plain') {
      script.src = `/${name}.js?${copy}`;
      await loaded(script);
    } else {
      const url = `${location.origin}/${name}.js`;
      // The versions of the script stored, asked while its BinaryAST downloads.
      const stored = caches
        .open('binast-decoded-v1')
        .then((cache) => cache.keys(url, { ignoreSearch: true }))
        .then((keys) => keys.map((request) => new URL(request.url).searchParams.get('binast-etag')));
      const response = await fetch(`/${name}.binjs`);
      if ((await stored).includes(String(copy))) throw new Error('a fresh copy is never stored before it ran');
      const body = /** @type {ReadableStream<Uint8Array>} */ (response.body);
      const source = await new Promise((resolve) => {
        worker.onmessage = (event) => resolve(event.data);
        worker.postMessage({ body, way, copy, url }, [body]);
      });
      if (way === 'blob') {
        script.src = URL.createObjectURL(source);
        await loaded(script);
        URL.revokeObjectURL(script.src);
      } else {
        script.text = await source.text();
        document.head.append(script);
      }
      kept = new Promise((resolve) => {
        worker.onmessage = resolve;
        worker.postMessage({ keep: copy });
      });
    }
    script.remove();
  };
  /** @type {Promise<unknown>} */
  let kept = Promise.resolve();
  // Resolves once the Worker stored the last decoded copy: the bench waits for it between runs, so the write (the
  // Worker's, after the script ran) falls outside every measured window.
  const storedCopy = () => kept;
  Object.assign(globalThis, { runLibrary, storedCopy });
}
