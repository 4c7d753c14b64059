import { defineConfig } from 'vite';

export default defineConfig({
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // Chart.js is most of the bundle; one chunk keeps the page to a single script request.
    chunkSizeWarningLimit: 400,
  },
});
