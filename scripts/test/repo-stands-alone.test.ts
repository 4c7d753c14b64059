// A clone must build, test, demo and benchmark with nothing beside it: no script, config or test may name a path
// outside the repository (the design notes a developer reads live in a sibling folder a user's clone does not have).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const checkedFolders = ['scripts', 'bench', 'e2e', 'workers', 'packages', 'apps', 'wasm', 'fixtures', '.ci'];
const checkedRootFiles = ['package.json', 'wrangler.toml', 'vitest.config.ts', 'tsconfig.json', 'biome.json'];
/** Source and config; prose (Markdown) may mention other places, and data files (results, images) hold no paths. */
const codeFile = /\.(m?[jt]s|d\.mts|json|toml|sh|rs|html|css)$|(^|\/)run$/;
/** This file: its own examples of what is flagged would flag it. */
const thisFile = relative(repoRoot, fileURLToPath(import.meta.url));

/** Absolute paths of one machine: a home, a workspace, a mount. System paths (/usr/bin, /dev, /proc, /tmp) are fine. */
const machinePath = /(^|['"`\s=(:])\/(work|home|root|Users|mnt|srv|opt)\//;
/** `join(repoRoot, '..', …)` and the like: a step out of the repository root. */
const stepAboveRoot = /\b(repoRoot|rootDir|root)\s*,\s*['"]\.\.(\/[^'"]*)?['"]/;
/** Quoted relative paths, resolved against the file's folder (imports, `new URL('../..', import.meta.url)`, joins). */
const relativeLiteral = /(['"`])(\.\.(?:\/[^'"`\s]*)?)\1/g;

function trackedFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', ...checkedFolders, ...checkedRootFiles], { cwd: repoRoot });
  return listed
    .toString()
    .split('\0')
    .filter((file) => file !== '' && file !== thisFile && codeFile.test(file) && !file.startsWith('bench/results/'));
}

/** Every place in `file` that names a path outside the repository, as `file:line: text`. */
function escapes(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8');
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `${file}:${index + 1}: ${line.trim()}`;
    if (machinePath.test(line) || stepAboveRoot.test(line)) found.push(where);
    for (const match of line.matchAll(relativeLiteral)) {
      const target = resolve(dirname(join(repoRoot, file)), match[2] ?? '');
      if (relative(repoRoot, target).startsWith('..')) found.push(where);
    }
  });
  return found;
}

describe('the repository stands alone', () => {
  const files = trackedFiles();

  it('checks the build, test, bench and app sources (a sanity floor on what was scanned)', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain('scripts/build.mjs');
    expect(files).toContain('scripts/images-fixtures.mjs');
  });

  it('names no path outside the repository in any script, config or test', () => {
    expect(files.flatMap(escapes)).toEqual([]);
  });

  it('flags the shapes it looks for (checked on made-up lines)', () => {
    expect(machinePath.test("const dir = '/work/shared/fixtures';")).toBe(true);
    expect(stepAboveRoot.test("join(repoRoot, '..', 'shared', 'fixtures')")).toBe(true);
    expect(machinePath.test("const chromium = '/usr/bin/chromium';")).toBe(false);
    const outside = [...'x("../../../shared/a")'.matchAll(relativeLiteral)].map((m) => m[2]);
    expect(relative(repoRoot, resolve(join(repoRoot, 'scripts/lib'), outside[0] ?? '')).startsWith('..')).toBe(true);
  });

  it('keeps the source photos in the repository', () => {
    const photos = execFileSync('git', ['ls-files', 'fixtures/images'], { cwd: repoRoot }).toString();
    for (const name of ['coffee.png', 'chelsea.png', 'hubble_deep_field.jpg', 'README.md'])
      expect(photos).toContain(name);
  });
});
