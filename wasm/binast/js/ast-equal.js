// Structural equality of two ESTree trees from acorn, ignoring what regeneration may legitimately change: source
// positions and the raw spelling of literals. Values are compared exactly (Object.is: 0 vs -0, NaN), regular
// expressions by pattern and flags, BigInts by their digits.

const ignoredKeys = new Set(['start', 'end', 'loc', 'range']);

/**
 * The path of the first difference between `a` and `b`, or `null` when they are the same tree.
 * @param {unknown} a
 * @param {unknown} b
 * @param {string} [path]
 * @returns {string | null}
 */
export function firstDifference(a, b, path = '$') {
  if (Object.is(a, b)) return null;
  if (typeof a === 'bigint' || typeof b === 'bigint') return String(a) === String(b) ? null : path;
  if (a instanceof RegExp || b instanceof RegExp) return String(a) === String(b) ? null : path;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return path;
  if (Array.isArray(a) !== Array.isArray(b)) return path;
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return `${path}.length (${a.length} vs ${b.length})`;
    for (let i = 0; i < a.length; i++) {
      const difference = firstDifference(a[i], b[i], `${path}[${i}]`);
      if (difference) return difference;
    }
    return null;
  }
  const recordA = /** @type {Record<string, unknown>} */ (a);
  const recordB = /** @type {Record<string, unknown>} */ (b);
  const keys = new Set([...Object.keys(recordA), ...Object.keys(recordB)]);
  for (const key of keys) {
    if (ignoredKeys.has(key)) continue;
    // A literal's spelling may change ('a' -> "a", 0x10 -> 16); its value may not. Template chunks keep raw.
    if (key === 'raw' && recordA.type === 'Literal') continue;
    const difference = firstDifference(recordA[key], recordB[key], `${path}.${key}`);
    if (difference) return `${difference}${path.endsWith(key) ? '' : ` (${String(recordA.type ?? '')})`}`;
  }
  return null;
}
