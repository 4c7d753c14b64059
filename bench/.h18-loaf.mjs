import { chromium } from '@playwright/test';
import { chromiumArgs } from './lib/chromium.mjs';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: [...chromiumArgs] });
const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
await page.addInitScript(() => {
  window.__loaf = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration < 50) continue;
      window.__loaf.push({ start: Math.round(e.startTime), dur: Math.round(e.duration), block: Math.round(e.blockingDuration), scripts: e.scripts.map((s) => `${s.invokerType} ${s.invoker} ${s.sourceURL.split('/').pop()}:${s.sourceFunctionName} ${Math.round(s.duration)}ms`) });
    }
  }).observe({ type: 'long-animation-frame', buffered: true });
});
await page.goto(`http://127.0.0.1:8812/${process.argv[2] ?? ''}`);
await page.waitForFunction(() => window.__speedkitResult || window.__speedkitError, null, { timeout: 120000 });
await page.waitForTimeout(1500);
for (const e of await page.evaluate(() => window.__loaf)) console.log(JSON.stringify(e));
await browser.close();
