import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  // The chart worker (src/chart-worker.ts) is a module worker: one file with its own copy of Chart.js, which the main
  // thread then never loads unless the worker cannot run there.
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Chart.js is most of the bundle; one chunk keeps the page to a single script request.
    chunkSizeWarningLimit: 400,
    // No modulepreload polyfill: browsers without native <link rel=modulepreload> (before Chromium 66, Safari 17,
    // Firefox 115) still load the modules, only without the preload, and the polyfill's scan of the document cost
    // ~5 ms of a 4×-throttled phone's main thread inside the page's module task (e2e/long-tasks.spec.ts).
    modulePreload: { polyfill: false },
    rollupOptions: {
      // The speed test, and the @cloudflare/speedtest baseline page the accuracy testbed and e2e drive.
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        baseline: fileURLToPath(new URL('baseline.html', import.meta.url)),
      },
      output: {
        // Chart.js (and its colour helper) in a chunk of its own, named so, loaded only with the charts: the page
        // bench (bench/page) and the long-task e2e tell its main-thread time from ours by this file name.
        codeSplitting: { groups: [{ name: 'chartjs', test: /node_modules[\\/](chart\.js|@kurkle)[\\/]/ }] },
      },
    },
  },
});
