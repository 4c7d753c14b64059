import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { type LoaderRecord, loaderRecords, pageErrors } from './binast-loader-helpers';

/** The HTML block under the README's "Embedding the BinaryAST loader" heading, exactly as a reader would copy it. */
function readmeSnippet(): string {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const section = readme.split('## Embedding the BinaryAST loader')[1];
  const block = section?.match(/```html\n([\s\S]*?)```/)?.[1];
  if (!block) throw new Error('README.md has no ```html block under "## Embedding the BinaryAST loader"');
  return block;
}

test("the README's embedding snippet, pasted into a page as written, loads the loader and runs the script", async ({
  page,
}) => {
  const snippet = readmeSnippet();
  expect(snippet).toContain('<script type="binast"');
  const errors = pageErrors(page);
  const statuses = new Map<string, number>();
  page.on('response', (response) => statuses.set(new URL(response.url()).pathname, response.status()));
  // A page of the site that holds nothing but the snippet, on the same origin as the Worker's `npm start`.
  await page.route('**/readme-snippet.html', (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>README snippet</title></head><body><main>\n${snippet}</main></body></html>`,
    }),
  );
  await page.goto('/readme-snippet.html');

  const records: LoaderRecord[] = await loaderRecords(page);
  expect(records).toHaveLength(1);
  expect(new URL(records[0]?.url ?? '').pathname).toBe('/js/app.js');
  // Run as the loader decided (this page has no size hint: the cost model steps aside and runs the plain script),
  // not by a fallback after a failure.
  expect(records[0]).toMatchObject({ outcome: 'plain', reason: 'no-hint' });
  await expect(page.locator('html')).toHaveAttribute('data-example-app', 'ran');
  expect(statuses.get('/binast/binast-loader.min.js')).toBe(200);
  expect(errors).toEqual([]);
});
