// Flags for Debian Chromium in this sandbox, shared by every benchmark that drives a browser and by the e2e suite
// (e2e/playwright.config.ts, through chromium.d.mts). Without the background-networking flags Chromium keeps
// dialling Google's hosts, which this closed network refuses.
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
