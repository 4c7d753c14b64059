import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

// Built by scripts/build.mjs (npm test builds first); the loader is on every page's critical path.
const builtUrl = new URL('../dist/binast-loader.min.js', import.meta.url);
const budgetGzipBytes = 2048;

describe('binast-loader.min.js', () => {
  it('has been built', () => {
    expect(existsSync(builtUrl)).toBe(true);
  });

  it(`stays within ${budgetGzipBytes} bytes gzipped`, () => {
    const gzipBytes = gzipSync(readFileSync(builtUrl), { level: 9 }).length;
    expect(gzipBytes).toBeLessThanOrEqual(budgetGzipBytes);
  });

  it('is a classic script that does not need a module loader', () => {
    const source = readFileSync(builtUrl, 'utf8');
    expect(source.startsWith('(()=>{')).toBe(true);
    expect(source).not.toMatch(/\bexport\s*[{*]/);
  });
});

describe('binast-loader.mjs (ESM build for bundlers)', () => {
  it('exports the loader and its pure parts without touching the DOM on import', async () => {
    // Node has no document: importing must not start anything.
    const built = await import(new URL('../dist/binast-loader.mjs', import.meta.url).href);
    expect(typeof built.startLoader).toBe('function');
    expect(built.planScript({ type: 'binast', src: '/a.js', defer: true, hasAttribute: () => false }, false)).toEqual({
      module: false,
      mode: 'defer',
    });
    expect(built.binastAccept).toBe('application/javascript-binast, */*');
  });
});
