import { defineConfig } from '@playwright/test';
import { chromiumArgs } from '../bench/lib/chromium.mjs';

// The suite starts its own `wrangler dev` on a port of its own, so a developer's `npm start` on 8787 can keep running.
const port = Number(process.env.E2E_PORT ?? 8799);

export default defineConfig({
  testDir: '.',
  outputDir: '../reports/e2e-artifacts',
  timeout: 60_000,
  workers: 1,
  retries: 0,
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [...chromiumArgs],
    },
  },
  webServer: {
    // State (R2 variants, Cache API) under the repository's reports/, which `npm test` empties first: stored
    // variants from an earlier run must not answer for today's code. (Until 2026-11-27 `../reports` put it beside
    // the clone, where it outlived every run.)
    command: `wrangler dev --port ${port} --ip 127.0.0.1 --persist-to reports/e2e-state`,
    cwd: '..',
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    stderr: 'pipe',
  },
});
