import { readdirSync, readFileSync } from 'node:fs';
import { firstDifference } from '@speedkit/binast/ast-equal';
import { describe, expect, it } from 'vitest';
import { decodeToJavaScript, encodeJavaScript, parseJavaScript, stats } from '../src/codec.mjs';
import { libraries, test262PassDir, unseenLibraries } from '../src/corpus.mjs';

type SourceType = 'script' | 'module';
const layouts = ['multipart', 'optimised', 'context'] as const;
const lazyLevels = [0, 1, 2, 3];

/**
 * encode -> decode -> regenerate -> re-parse -> compare with the original tree, in every layout and lazy level.
 * Laziness and layout must not change the regenerated text, so it is re-parsed only when it differs from the
 * first combination's (an identical string re-parses to an identical tree); that keeps the corpus fast.
 */
function roundTrip(source: string, sourceType: SourceType) {
  const original = parseJavaScript(source, sourceType);
  const checked = new Set<string>();
  const lazyCounts: number[] = [];
  for (const layout of layouts) {
    for (const lazyLevel of lazyLevels) {
      const bytes = encodeJavaScript(source, { layout, lazyLevel, sourceType });
      const regenerated = decodeToJavaScript(bytes);
      if (layout === 'multipart') lazyCounts.push(stats(bytes).lazyFunctions);
      if (checked.has(regenerated)) continue;
      const difference = firstDifference(original, parseJavaScript(regenerated, sourceType));
      if (difference) return { difference: `${layout} lazy ${lazyLevel}: ${difference}`, lazyCounts };
      checked.add(regenerated);
    }
  }
  return { difference: null, lazyCounts };
}

describe('round trip over test262-parser-tests pass/', () => {
  const files = readdirSync(test262PassDir).filter((name) => name.endsWith('.js'));

  it('regenerates every file acorn accepts to an equal tree, in every layout and lazy levels 0-3', () => {
    let accepted = 0;
    const failures: string[] = [];
    for (const name of files) {
      const source = readFileSync(`${test262PassDir}/${name}`, 'utf8');
      const sourceType: SourceType = name.endsWith('.module.js') ? 'module' : 'script';
      try {
        parseJavaScript(source, sourceType);
      } catch {
        continue; // the parser's own limits are not the encoder's; counted below
      }
      accepted += 1;
      const { difference } = roundTrip(source, sourceType);
      if (difference) failures.push(`${name}: ${difference}`);
    }
    console.info(`test262 pass/: ${files.length} files, ${accepted} accepted by acorn, ${failures.length} failed`);
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(1900);
  }, 120_000);
});

describe('round trip of for heads that start with `let` the identifier (sloppy scripts)', () => {
  it.each([
    'for ((let).a of b);',
    'for ((let).a in b);',
    'for ((let)[0] of b);',
    'for ((let)(0).x of b);',
    'for (letter.a of b);',
    'for ((let).a = 0; ;) break;',
  ])('%s', (source) => {
    expect(roundTrip(source, 'script').difference).toBeNull();
  });
});

describe('round trip over real libraries', () => {
  it.each(libraries.map((library) => [library.name, library.path]))(
    '%s regenerates to an equal tree in every layout and lazy levels 0-3',
    (_name, path) => {
      const { difference, lazyCounts } = roundTrip(readFileSync(path, 'utf8'), 'script');
      expect(difference).toBeNull();
      // Level 0 writes no skip lengths; deeper levels never lazify fewer functions.
      expect(lazyCounts[0]).toBe(0);
      expect(lazyCounts[3]).toBeGreaterThan(0);
      for (let level = 1; level < lazyCounts.length; level++) {
        expect(lazyCounts[level]).toBeGreaterThanOrEqual(lazyCounts[level - 1] ?? 0);
      }
    },
    120_000,
  );
});

describe('round trip over the unseen corpus (libraries the format was not tuned on)', () => {
  it.each(unseenLibraries.map((library) => [library.name, library.path, library.sourceType] as const))(
    '%s regenerates to an equal tree in the context layout',
    (_name, path, sourceType) => {
      const source = readFileSync(path, 'utf8');
      const regenerated = decodeToJavaScript(encodeJavaScript(source, { layout: 'context', sourceType }));
      expect(firstDifference(parseJavaScript(source, sourceType), parseJavaScript(regenerated, sourceType))).toBeNull();
    },
    60_000,
  );
});
