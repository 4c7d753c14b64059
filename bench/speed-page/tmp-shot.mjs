import { chromium } from '@playwright/test';
import { chromiumArgs } from '../lib/chromium.mjs';

const [file, out, width] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
const page = await browser.newPage({ viewport: { width: Number(width), height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(e.message));
await page.goto(`file://${file}`);
await page.waitForTimeout(500);
await page.screenshot({ path: out, fullPage: true });
console.log('errors', errors, 'scrollWidth', await page.evaluate(() => document.documentElement.scrollWidth));
await browser.close();
