import { expect, type Page, type Response, test } from '@playwright/test';

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
  await expect(page.locator('output[data-type]')).toHaveCount(7, { timeout: 30_000 });
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
    ['/demo/images/graphics/text.png', 600, 400],
    ['/demo/images/graphics/chart.png', 640, 320],
  ]);
  // Graphics come as lossless WebP on the first load (text keeps it; the chart may later become AVIF).
  expect(types.get('/demo/images/graphics/text.png')).toBe('image/webp');
  // Each caption's "now served as" comes from a second request that Chromium revalidates with the ETag of the
  // original the page fetched just before; the Worker used to pass the origin's 304 through, and the captions read
  // image/jpeg and image/png.
  const shown = await page
    .locator('output[data-type]')
    .evaluateAll((outputs) => (outputs as HTMLElement[]).map((output) => output.dataset.type));
  for (const type of shown) expect(['image/avif', 'image/webp']).toContain(type);
  // URL-API images are encoded synchronously, so the best format arrives on the first load.
  expect(types.get('/cdn-cgi/image/width=320,format=auto/demo/images/astronaut.png')).toBe('image/avif');
  await page.screenshot({ path: testInfo.outputPath('images-first-load.png'), fullPage: true });
});

test('after the background encode, a reload upgrades the negotiated images to AVIF', async ({ page }) => {
  await page.goto('/demo/images.html');
  await expect(page.locator('output[data-type]')).toHaveCount(7, { timeout: 30_000 });
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

/**
 * Chromium paints an image twice into canvases: the original from a Blob (nothing negotiates it; the browser turns it
 * by its EXIF and paints it through its colour profile), and the same URL as an <img>, which the Worker answers with
 * AVIF or WebP. Returns both sizes, the variant's type and the mean difference per colour channel.
 */
async function compareWithOriginal(page: Page, url: string, variantUrl = url) {
  let variantType: string | undefined;
  page.on('response', (response: Response) => {
    if (response.request().resourceType() === 'image' && new URL(response.url()).pathname === variantUrl)
      variantType = response.headers()['content-type'];
  });
  // A same-origin page that shows no image: the images demo fetches its images' originals itself, and Chromium's cache
  // then answers the variant's <img> with that original.
  await page.goto('/demo/');
  const compared = await page.evaluate(
    async ([url, variantUrl]) => {
      const original = await (await fetch(url, { headers: { accept: 'image/jpeg' }, cache: 'no-store' })).blob();
      const load = (src: string) =>
        new Promise<HTMLImageElement>((resolve, reject) => {
          const image = new Image();
          image.onload = () => resolve(image);
          image.onerror = () => reject(new Error(`${src} did not load`));
          image.src = src;
        });
      const pixels = (image: HTMLImageElement) => {
        const canvas = Object.assign(document.createElement('canvas'), {
          width: image.naturalWidth,
          height: image.naturalHeight,
        });
        const context = canvas.getContext('2d') as CanvasRenderingContext2D;
        context.drawImage(image, 0, 0);
        return context.getImageData(0, 0, canvas.width, canvas.height).data;
      };
      const [fromOriginal, fromWorker] = await Promise.all([load(URL.createObjectURL(original)), load(variantUrl)]);
      const a = pixels(fromOriginal);
      const b = pixels(fromWorker);
      let sum = 0;
      for (let i = 0; i < a.length; i++) if (i % 4 !== 3) sum += Math.abs((a[i] as number) - (b[i] as number));
      return {
        original: [fromOriginal.naturalWidth, fromOriginal.naturalHeight],
        variant: [fromWorker.naturalWidth, fromWorker.naturalHeight],
        meanDifference: sum / ((a.length / 4) * 3),
      };
    },
    [url, variantUrl] as const,
  );
  return { ...compared, variantType };
}

test('a phone photo with an EXIF turn shows the same way up through the Worker as the original JPEG', async ({
  page,
}) => {
  const compared = await compareWithOriginal(page, '/demo/images/small/chelsea-orientation-6.jpg');
  expect(compared.original).toEqual([64, 96]);
  expect(compared.variant).toEqual([64, 96]);
  expect(['image/avif', 'image/webp']).toContain(compared.variantType);
  // Re-encoding at q85 differs by a few levels; a turned or mirrored image by tens.
  expect(compared.meanDifference).toBeLessThan(6);
});

test('a Display P3 photo keeps its colours through the Worker, as WebP and as AVIF carrying its profile', async ({
  page,
}) => {
  const negotiated = await compareWithOriginal(page, '/demo/images/small/coffee-icc-p3.jpg');
  const srgb = await compareWithOriginal(page, '/demo/images/small/coffee-icc-srgb.jpg');
  const avif = (name: string) => `/cdn-cgi/image/format=avif/demo/images/small/${name}`;
  const p3Avif = await compareWithOriginal(page, '/demo/images/small/coffee-icc-p3.jpg', avif('coffee-icc-p3.jpg'));
  const srgbAvif = await compareWithOriginal(
    page,
    '/demo/images/small/coffee-icc-srgb.jpg',
    avif('coffee-icc-srgb.jpg'),
  );
  expect(negotiated.variantType).toBe('image/webp');
  expect(['image/avif', 'image/webp']).toContain(srgb.variantType);
  expect(p3Avif.variantType).toBe('image/avif');
  expect(srgbAvif.variantType).toBe('image/avif');
  // Without the profile the P3 numbers were painted as sRGB: 7.7–7.8 levels off on average (2026-11-27), against
  // about 3 for re-encoding the sRGB copy. With it, the P3 photo differs no more than re-encoding does.
  const levels = (compared: { meanDifference: number }) => compared.meanDifference.toFixed(2);
  console.log(
    `mean difference per channel: P3 ${levels(negotiated)} (WebP) ${levels(p3Avif)} (AVIF), ` +
      `sRGB ${levels(srgb)} (${srgb.variantType}) ${levels(srgbAvif)} (AVIF)`,
  );
  expect(negotiated.meanDifference).toBeLessThan(srgb.meanDifference + 1.5);
  expect(p3Avif.meanDifference).toBeLessThan(srgbAvif.meanDifference + 1.5);
});

test('a screenshot of text paints pixel for pixel the same through the Worker (lossless WebP)', async ({ page }) => {
  const text = '/demo/images/graphics/text.png';
  // The page's own request (Chromium's Accept) gets the WebP encoded on the spot. The second view revalidates it:
  // had the background job stored a lossy AVIF instead of giving way, that would come back in its place.
  const first = await compareWithOriginal(page, text);
  const again = await compareWithOriginal(page, text);
  expect(first.variantType).toBe('image/webp');
  expect(again.variantType).toBe('image/webp');
  expect(first.original).toEqual([600, 400]);
  // Lossy WebP at q85 differed by 0.75 levels on average and up to 137 on text edges (bench/images/lossless.mjs).
  expect(first.meanDifference).toBe(0);
  expect(again.meanDifference).toBe(0);
});

test('a photo exported at 144 dpi keeps its laid-out size: Chromium sizes the JPEG by its EXIF density', async ({
  page,
}) => {
  // 96×64 pixels, EXIF 144 dpi and 48×32 (scripts/images-fixtures.mjs). A WebP or AVIF variant carries no EXIF, and
  // the same <img> was laid out at 96×64.
  const url = '/demo/images/small/coffee-density-144.jpg';
  let servedType: string | undefined;
  page.on('response', (response: Response) => {
    if (new URL(response.url()).pathname === url) servedType = response.headers()['content-type'];
  });
  await page.goto('/demo/');
  const laidOut = await page.evaluate(async (url) => {
    const image = document.createElement('img');
    image.src = url;
    document.body.append(image);
    await image.decode();
    const box = image.getBoundingClientRect();
    return [image.naturalWidth, image.naturalHeight, box.width, box.height];
  }, url);
  expect(laidOut).toEqual([48, 32, 48, 32]);
  expect(servedType).toBe('image/jpeg');
});

test.describe('at 2 dppx', () => {
  test.use({ deviceScaleFactor: 2 });

  test("Cloudflare's srcset pattern shows an image where the source's own format is over the work budget", async ({
    page,
  }) => {
    // A 640 px slot at 2 dppx picks the 1280w candidate: hubble_deep_field.jpg (1000x872) upscaled to 1280 px as
    // JPEG, estimated over IMAGES_MAX_WORK_MS. That was a 400 and a broken image; now the original JPEG.
    await page.goto('/demo/');
    const shown = await page.evaluate(async () => {
      const source = 'demo/images/hubble_deep_field.jpg';
      const image = document.createElement('img');
      image.sizes = '640px';
      image.srcset = [320, 640, 960, 1280, 2560]
        .map((width) => `/cdn-cgi/image/fit=contain,width=${width}/${source} ${width}w`)
        .join(', ');
      document.body.append(image);
      const loaded = await image.decode().then(
        () => true,
        () => false,
      );
      return { loaded, currentSrc: new URL(image.currentSrc).pathname, naturalWidth: image.naturalWidth };
    });
    expect(shown.currentSrc).toBe('/cdn-cgi/image/fit=contain,width=1280/demo/images/hubble_deep_field.jpg');
    expect(shown.loaded).toBe(true);
    // 1000 px served for a 1280w candidate: laid out at 1000 × 640 / 1280 CSS pixels, as the browser scales it.
    expect(shown.naturalWidth).toBe(500);
  });
});
