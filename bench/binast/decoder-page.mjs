// A Chromium page for the decoder's browser benchmarks: the decode-only build (wasm/binast/pkg/decode, what the loader
// ships), a worker script and the bench's own files, served through Playwright's request routing (no server, no
// network). A query string asks for a fresh copy of a file: its value is appended as a comment, so no V8 cache
// serves a later run.
import { readFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../lib/chromium.mjs';

const decoderDir = new URL('.', import.meta.resolve('@speedkit/binast/decode'));
const origin = 'http://binast-bench.invalid';

/**
 * Opens the page (at `/`, with `/binast.js`, `/binast_bg.wasm` and `/worker.js` beside it and `files` by path),
 * runs `use` on it and closes the browser. `decoder`: the folder of another build's JavaScript and Wasm.
 * @template T
 * @param {{ title: string, workerSource: string, files: Map<string, { body: Buffer, type: string }>, decoder?: URL }} setup
 * @param {(page: import('@playwright/test').Page) => Promise<T>} use
 * @returns {Promise<T>}
 */
export async function withDecoderPage({ title, workerSource, files, decoder = decoderDir }, use) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    // A secure context, as the loader's sites are (https): Cache Storage, where the loader keeps decoded copies,
    // exists only there.
    args: [...chromiumArgs, `--unsafely-treat-insecure-origin-as-secure=${origin}`],
  });
  try {
    const page = await browser.newPage();
    const served = new Map([
      ['/binast.js', { body: readFileSync(new URL('binast.js', decoder)), type: 'text/javascript' }],
      ['/binast_bg.wasm', { body: readFileSync(new URL('binast_bg.wasm', decoder)), type: 'application/wasm' }],
      ['/', { body: Buffer.from(`<!doctype html><title>${title}</title>`), type: 'text/html' }],
      ['/worker.js', { body: Buffer.from(workerSource), type: 'text/javascript' }],
      ...files,
    ]);
    await page.route(`${origin}/**`, (route) => {
      const url = new URL(route.request().url());
      const file = served.get(url.pathname);
      if (!file) return route.fulfill({ status: 404, body: 'not found' });
      const body = url.search ? Buffer.concat([file.body, Buffer.from(`\n//${url.search}`)]) : file.body;
      return route.fulfill({ status: 200, body, contentType: file.type });
    });
    await page.goto(`${origin}/`);
    return await use(page);
  } finally {
    await browser.close();
  }
}

/**
 * Starts the page's `/worker.js` as a module Worker, posts it `message` and resolves with its first reply.
 * @param {import('@playwright/test').Page} page
 * @param {unknown} message
 * @returns {Promise<any>}
 */
export function askWorker(page, message) {
  return page.evaluate(
    (data) =>
      new Promise((resolve, reject) => {
        const worker = new Worker('/worker.js', { type: 'module' });
        worker.onmessage = (event) => resolve(event.data);
        worker.onerror = (event) => reject(new Error(event.message));
        worker.postMessage(data);
      }),
    message,
  );
}
