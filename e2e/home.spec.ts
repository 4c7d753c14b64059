import { expect, test } from '@playwright/test';

test('the page loads from wrangler dev and shows the Wasm check result', async ({ page }, testInfo) => {
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('speedkit');
  await expect(page.getByRole('status')).toContainText('Wasm OK: varnums for 1 and 300 are 02 59 04');
  await page.screenshot({ path: testInfo.outputPath('home.png'), fullPage: true });
});
