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
