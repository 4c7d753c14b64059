import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// The files a site must host beside the loader, as the READMEs list them, against what the build puts in dist/ for
// pages (the ESM build is for bundlers, sizes.json for the budget). A README that named only binast.js and
// binast_bg.wasm left a site whose decoder could not start: every script fell back (`reason: 'decoder'`).

const dist = new URL('../dist/', import.meta.url);
const pageFiles = readdirSync(dist)
  .filter((name) => name !== 'binast-loader.mjs' && name !== 'sizes.json')
  .sort();

/** The backquoted file names (`x.js`, `x.wasm`) in `text`. */
const fileNames = (text: string) => [...text.matchAll(/`([\w.-]+\.(?:js|wasm))`/g)].map((match) => match[1]).sort();

/** The text of `readme` from `start` to the first blank line after it. */
function paragraph(readme: string, start: string): string {
  const at = readme.indexOf(start);
  expect(at, `"${start}" in the README`).toBeGreaterThanOrEqual(0);
  const end = readme.indexOf('\n\n', at);
  return readme.slice(at, end === -1 ? undefined : end);
}

describe('the files the READMEs tell a site to host', () => {
  it('are every file of dist/ a page uses', () => {
    expect(pageFiles).toContain('binast-loader.min.js');
    const loaderReadme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(fileNames(paragraph(loaderReadme, '2. Host `binast-loader.min.js`'))).toEqual(pageFiles);
    const rootReadme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
    expect(fileNames(paragraph(rootReadme, 'Serve your scripts through the BinaryAST Worker'))).toEqual(pageFiles);
  });
});
