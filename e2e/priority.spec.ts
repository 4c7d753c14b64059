import { expect, test } from '@playwright/test';

// The demo page through the all-in-one Worker in real Chromium: every image arrives whole, and each carries the
// priority headers for what it finally is (the images capability may have turned a JPEG into AVIF/WebP by then).

test('the priority demo page loads all ten images with priority headers matching their format', async ({ page }) => {
  const headers = new Map<string, Record<string, string>>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (path.startsWith('/demo/priority/')) headers.set(path, response.headers());
  });
  await page.goto('/demo/priority');
  await page.waitForLoadState('load');
  const sizes = await page
    .locator('img')
    .evaluateAll((images) => (images as HTMLImageElement[]).map((image) => [image.complete, image.naturalWidth > 0]));
  expect(sizes).toEqual(new Array(10).fill([true, true]));
  expect(headers.size).toBe(10);
  for (const [path, h] of headers) {
    expect(h['cf-priority'], path).toBe('30/0');
    if (h['content-type'] === 'image/jpeg') {
      expect(h.priority, path).toBe('u=3, i');
      expect(h['cf-priority-change'], path).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/n$/);
    } else {
      expect(h.priority, path).toBe('u=3');
      expect(h['cf-priority-change'], path).toMatch(/^\d+:10\/n$/);
    }
  }
});

test('the priority headers leave the HTML page alone', async ({ request }) => {
  const response = await request.get('/demo/priority');
  expect(response.status()).toBe(200);
  expect(response.headers()['cf-priority']).toBeUndefined();
});
