// Renders the graphics fixtures in fixtures/graphics: what sites save as PNG besides photos (a page of text, a line
// chart, a product page around a photo), painted by Chromium as a screenshot tool would. The PNGs are
// committed, so the build and tests never need a browser; this script says how they were made. Run by hand:
// `node scripts/render-graphics-fixtures.mjs` (Chromium at CHROMIUM_PATH or /usr/bin/chromium).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { chromiumArgs } from '../bench/lib/chromium.mjs';
import { photosDir, repoRoot } from './lib/tools.mjs';

const outputDir = join(repoRoot, 'fixtures', 'graphics');

const paragraph =
  'Speed tests go wrong where TCP sees the round trip: slow start, congestion windows and loss recovery ' +
  'shape what a browser can measure in a few seconds. <a href="#">Read the method</a> before comparing numbers.';
const textPage = `<body style="margin:24px;width:552px;font:13px/1.5 Georgia,serif;color:#222">
<h2 style="font-family:sans-serif;color:#1e3a8a">Reading the numbers</h2>${`<p>${paragraph}</p>`.repeat(5)}</body>`;

const chartPage = `<body style="margin:0"><canvas id="chart" width="640" height="320"></canvas><script>
const g = document.getElementById('chart').getContext('2d');
g.fillStyle = '#fff'; g.fillRect(0, 0, 640, 320);
g.strokeStyle = '#ddd';
for (let y = 40; y < 320; y += 40) { g.beginPath(); g.moveTo(40, y); g.lineTo(620, y); g.stroke(); }
['#2563eb', '#dc2626', '#16a34a'].forEach((colour, line) => {
  g.strokeStyle = colour; g.lineWidth = 2.5; g.beginPath();
  for (let x = 0; x <= 580; x += 5) {
    const y = 170 + Math.sin(x / 50 + line) * 60 * (1 + line / 3) + Math.cos(x / 15) * 8;
    if (x === 0) g.moveTo(40, y); else g.lineTo(40 + x, y);
  }
  g.stroke();
});
g.fillStyle = '#111'; g.font = '14px sans-serif'; g.fillText('Throughput (Mbit/s) over time', 230, 24);
</script></body>`;

const photo = `data:image/png;base64,${readFileSync(join(photosDir, 'coffee.png')).toString('base64')}`;
const shopPage = `<body style="margin:0;font:15px system-ui,sans-serif">
<header style="background:#0f172a;color:#fff;padding:12px 20px;font-size:19px">Shop · Coffee</header>
<main style="display:flex;gap:20px;padding:20px"><img src="${photo}" style="width:280px">
<div><h2 style="margin-top:0">Espresso cup</h2><p style="color:#475569">Hand-made porcelain, 90 ml.</p>
<button style="background:#16a34a;color:#fff;border:0;border-radius:8px;padding:10px 22px;font-size:16px">Add to cart
</button></div></main></body>`;

const pages = [
  { name: 'text.png', html: textPage, viewport: { width: 600, height: 400 } },
  { name: 'chart.png', html: chartPage, viewport: { width: 640, height: 320 } },
  { name: 'shop.png', html: shopPage, viewport: { width: 560, height: 300 } },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: chromiumArgs,
});
try {
  for (const { name, html, viewport } of pages) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: 1 });
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: join(outputDir, name) });
    await page.close();
    process.stdout.write(`${name}\n`);
  }
} finally {
  await browser.close();
}
