// What wrangler.toml deploys must be what the rest of the project reads: the vars of each environment are only ever
// seen by a deployment, never by the tests, so they are checked here as text.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const toml = readFileSync(resolve(fileURLToPath(new URL('../../wrangler.toml', import.meta.url))), 'utf8');

/** Every `name = value` line of wrangler.toml (comments and quotes dropped), with the table it is in. */
const assignments = (() => {
  let table = '';
  const found: { table: string; name: string; value: string }[] = [];
  for (const line of toml.split('\n')) {
    const header = /^\s*\[+([^\]]+)\]+\s*$/.exec(line);
    if (header) table = header[1] ?? '';
    const pair = /^\s*([A-Za-z][A-Za-z0-9_]*)\s*=\s*("([^"]*)"|[^#\s]+)/.exec(line);
    if (pair) found.push({ table, name: pair[1] ?? '', value: pair[3] ?? pair[2] ?? '' });
  }
  return found;
})();

/** The `[env.<name>]` tables: each capability deployed alone. */
const environments = [...new Set([...toml.matchAll(/^\[env\.([\w-]+)\]/gm)].map((match) => match[1] ?? ''))];

describe('wrangler.toml', () => {
  it('deploys BinaryAST in the context layout, the only one the loader’s decoder reads', () => {
    const layouts = assignments.filter((entry) => entry.name === 'BINAST_LAYOUT');
    expect(layouts.length).toBeGreaterThan(0);
    for (const entry of layouts) expect(`${entry.table}: ${entry.value}`).toBe(`${entry.table}: context`);
  });

  // A capability deployed alone passes requests to its zone's origin with `fetch(request)`. On workers.dev (wrangler's
  // default for a Worker with no route) or a preview URL there is no origin behind it: the Worker fetches itself, and
  // one request under `wrangler dev --env binast` became thousands. Deployed without a route, it must answer nowhere
  // ("No targets deployed") rather than at a URL that loops.
  it.each(environments)(
    '[env.%s] is not deployed on workers.dev or preview URLs unless the owner turns them on',
    (name) => {
      const value = (key: string) =>
        assignments.find((entry) => entry.table === `env.${name}` && entry.name === key)?.value;
      expect({ workers_dev: value('workers_dev'), preview_urls: value('preview_urls') }).toEqual({
        workers_dev: 'false',
        preview_urls: 'false',
      });
    },
  );
});
