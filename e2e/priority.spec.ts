import { expect, test } from '@playwright/test';

// The demo page through the all-in-one Worker in real Chromium: every image arrives whole, and each carries the
// priority headers for what it finally is (the images capability may have turned a JPEG into AVIF/WebP by then).
// Over HTTP/1.1 Chromium sends no RFC 9218 Priority request header, so every image is staged (no browser signal).

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
      expect(h['cf-priority-change'], path).toMatch(/^\d+:20\/1, \d+:15\/1, \d+:10\/0$/);
    } else {
      expect(h.priority, path).toBe('u=3');
      expect(h['cf-priority-change'], path).toMatch(/^\d+:10\/0$/);
    }
  }
});

test('the priority headers leave the HTML page alone', async ({ request }) => {
  const response = await request.get('/demo/priority');
  expect(response.status()).toBe(200);
  expect(response.headers()['cf-priority']).toBeUndefined();
});

test('an urgent image keeps its order: named ones and large previews whole at 30/0, small previews first', async ({
  page,
  request,
}) => {
  await page.goto('/demo/priority');
  const src = await page
    .locator('img')
    .first()
    .evaluate((image) => (image as HTMLImageElement).src);
  expect(src).toBeTruthy();
  // What Chromium sends over HTTP/2 for fetchpriority=high (u=1) and for the first sizeable images of a page (u=2).
  for (const priority of ['u=1', 'u=2, i']) {
    const response = await request.get(String(src), { headers: { priority } });
    expect(response.status()).toBe(200);
    const length = Number(response.headers()['content-length']);
    const change = response.headers()['cf-priority-change'];
    if (priority === 'u=2, i' && change !== undefined) {
      // A progressive JPEG whose preview ends within 16 KiB: header and preview just above the critical responses,
      // the rest with them.
      expect(response.headers()['cf-priority']).toBe('31/0');
      expect(change).toMatch(/^\d+:30\/0$/);
      expect(Number(change.split(':')[0])).toBeLessThanOrEqual(16 * 1024);
    } else {
      expect(response.headers()['cf-priority'], priority).toBe('30/0');
      expect(change, priority).toBeUndefined();
    }
    expect(response.headers().priority, priority).toBe(priority);
    expect((await response.body()).length).toBe(length);
  }
  const low = await request.get(String(src), { headers: { priority: 'i' } });
  expect(low.headers()['cf-priority-change']).toMatch(/^\d+:10\/0$|^\d+:20\/1, /);
});
