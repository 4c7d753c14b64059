import { expect, type Response, test } from '@playwright/test';

// Chromium sends `Accept: image/avif,image/webp,...` for <img>; the Worker must answer with a modern format that
// Chromium decodes to the right dimensions.

const negotiated = ['/demo/images/chelsea.jpg', '/demo/images/coffee.png'];

test('Chromium gets AVIF or WebP for plain <img> tags and renders them at their real size', async ({
  page,
}, testInfo) => {
  const types = new Map<string, string>();
  page.on('response', (response: Response) => {
    const path = new URL(response.url()).pathname;
    if (response.request().resourceType() === 'image') types.set(path, response.headers()['content-type'] ?? '');
  });
  await page.goto('/demo/images.html');
  await expect(page.locator('output[data-type]')).toHaveCount(5, { timeout: 30_000 });
  for (const path of negotiated) expect(['image/avif', 'image/webp']).toContain(types.get(path));
  const sizes = await page
    .locator('img')
    .evaluateAll((images) =>
      (images as HTMLImageElement[]).map((image) => [
        new URL(image.src).pathname,
        image.naturalWidth,
        image.naturalHeight,
      ]),
    );
  expect(sizes).toEqual([
    ['/demo/images/chelsea.jpg', 451, 300],
    ['/demo/images/coffee.png', 600, 400],
    ['/cdn-cgi/image/width=320,format=auto/demo/images/astronaut.png', 320, 320],
    [
      '/cdn-cgi/image/width=300,height=200,fit=cover,gravity=top,format=auto/demo/images/hubble_deep_field.jpg',
      300,
      200,
    ],
    ['/cdn-cgi/image/width=240,height=240,fit=pad,format=auto/demo/images/chelsea.png', 240, 240],
  ]);
  // URL-API images are encoded synchronously, so the best format arrives on the first load.
  expect(types.get('/cdn-cgi/image/width=320,format=auto/demo/images/astronaut.png')).toBe('image/avif');
  await page.screenshot({ path: testInfo.outputPath('images-first-load.png'), fullPage: true });
});

test('after the background encode, a reload upgrades the negotiated images to AVIF', async ({ page }) => {
  await page.goto('/demo/images.html');
  await expect(page.locator('output[data-type]')).toHaveCount(5, { timeout: 30_000 });
  // The first visit (this test or the one above) queued the AVIF encodes; poll until they are stored.
  await expect
    .poll(
      async () =>
        page.evaluate(async (path) => {
          const response = await fetch(path, { cache: 'no-store', headers: { accept: 'image/avif,image/webp,*/*' } });
          return response.headers.get('content-type');
        }, negotiated[0] as string),
      { timeout: 30_000 },
    )
    .toBe('image/avif');
  await page.reload();
  const rendered = await page
    .locator('img')
    .first()
    .evaluate(async (image: HTMLImageElement) => {
      await image.decode();
      return [image.naturalWidth, image.naturalHeight];
    });
  expect(rendered).toEqual([451, 300]);
});
