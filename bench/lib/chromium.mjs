// Flags for Debian Chromium in this sandbox, shared by every benchmark that drives a browser (e2e/playwright.config.ts
// keeps its own copy: a TypeScript project cannot import this file without a declaration). Without the
// background-networking flags Chromium keeps dialling Google's hosts, which this closed network refuses.
export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];
