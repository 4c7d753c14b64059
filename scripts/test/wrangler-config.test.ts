// What wrangler.toml deploys must be what the rest of the project reads: the vars of each environment are only ever
// seen by a deployment, never by the tests, so they are checked here as text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const toml = readFileSync(resolve(fileURLToPath(new URL('../../wrangler.toml', import.meta.url))), 'utf8');

/** Every `NAME = "value"` line of wrangler.toml, with the table it is in. */
const assignments = (() => {
  let table = '';
  const found: { table: string; name: string; value: string }[] = [];
  for (const line of toml.split('\n')) {
    const header = /^\s*\[+([^\]]+)\]+\s*$/.exec(line);
    if (header) table = header[1] ?? '';
    const pair = /^\s*([A-Z][A-Z0-9_]*)\s*=\s*"([^"]*)"/.exec(line);
    if (pair) found.push({ table, name: pair[1] ?? '', value: pair[2] ?? '' });
  }
  return found;
})();

describe('wrangler.toml', () => {
  it('deploys BinaryAST in the context layout, the only one the loader’s decoder reads', () => {
    const layouts = assignments.filter((entry) => entry.name === 'BINAST_LAYOUT');
    expect(layouts.length).toBeGreaterThan(0);
    for (const entry of layouts) expect(`${entry.table}: ${entry.value}`).toBe(`${entry.table}: context`);
  });
});
