// What a module decoded by the BinaryAST loader cannot keep: the loader runs the regenerated text inline (or from a
// `blob:` URL), so its base URL is the page's, not the script's. A relative import (`./vendor.js`, what Vite and
// Rollup write between chunks), a dynamic import whose specifier is not a fixed string, or `import.meta` would then
// resolve against the page and break the site. Such modules are served as JavaScript (the Worker) and get no prebuilt
// file (`binast prebuild`). Bare specifiers (import maps), absolute URLs and root-relative paths (`/assets/x.js`)
// resolve the same from the page, so they are fine.

const isPageRelative = (/** @type {unknown} */ specifier) =>
  typeof specifier === 'string' && /^\.\.?(\/|$)/.test(specifier);

/**
 * A fixed specifier of a dynamic import: a string literal or a template without substitutions; undefined otherwise.
 * @param {any} node
 */
function fixedSpecifier(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked;
  return undefined;
}

/**
 * Why `program` (a module acorn parsed) would run differently from a page's base URL, or null when it would not.
 * Walks the whole tree with its own stack (no recursion), once.
 * @param {import('acorn').Program} program
 * @returns {string | null}
 */
export function pageRelativeReason(program) {
  /** @type {unknown[]} */
  const stack = [program];
  while (stack.length > 0) {
    const node = /** @type {any} */ (stack.pop());
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
      continue;
    }
    switch (node.type) {
      case 'ImportDeclaration':
      case 'ExportAllDeclaration':
      case 'ExportNamedDeclaration':
        if (isPageRelative(node.source?.value)) return `imports ${node.source.value} relative to the script`;
        break;
      case 'ImportExpression': {
        const specifier = fixedSpecifier(node.source);
        if (specifier === undefined) return 'imports a specifier computed at run time';
        if (isPageRelative(specifier)) return `imports ${specifier} relative to the script`;
        break;
      }
      case 'MetaProperty':
        if (node.meta?.name === 'import') return 'reads import.meta';
        break;
      default:
        break;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key !== 'loc' && value !== null && typeof value === 'object') stack.push(value);
    }
  }
  return null;
}

/**
 * Throws for a module the BinaryAST loader could not run as the browser runs it natively (`pageRelativeReason`);
 * scripts always pass. The one check the Worker and `binast prebuild` both make before encoding for the loader.
 * @param {import('acorn').Program} program
 * @param {'script' | 'module'} sourceType
 */
export function refusePageRelative(program, sourceType) {
  const reason = sourceType === 'module' ? pageRelativeReason(program) : null;
  if (reason) throw new Error(`the module ${reason}, which the loader would resolve against the page`);
}
