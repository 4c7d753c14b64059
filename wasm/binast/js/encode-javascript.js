// The parser half of the encoder, shared by the Worker, the CLI and the tests: acorn parses (ES2025, ESTree) and
// the Rust encoder reads acorn's objects directly through serde-wasm-bindgen. The Wasm module must have been
// initialised by the caller (`initSync`), because Workers, Node and browsers each load it their own way.
import { parse } from 'acorn';
import { encodeAst, encodeAstJson } from '../pkg/binast.js';

/**
 * Wire format numbers written after the BINJS magic, by layout. The context layout's number changes whenever its
 * models change (3 → 4: the nibble-bucketed text model; 4 → 5: the text's match model; 5 → 6: base64 text coded as
 * its bytes; 6 → 7: mixer weights per decision), so a stored encoding keyed by it is never read by a decoder of
 * another version.
 */
export const layoutFormats = /** @type {const} */ ({ multipart: 1, optimised: 2, context: 7 });

/**
 * Parses JavaScript with the options the encoder and the round-trip tests agree on.
 * @param {string} source
 * @param {'script' | 'module'} sourceType
 */
export function parseJavaScript(source, sourceType = 'script') {
  return parse(source, { ecmaVersion: 'latest', sourceType, allowHashBang: true });
}

/**
 * Parses a script as the Worker and `binast prebuild` encode it: a `.mjs` path, or a `.js` file that only parses as
 * a module (import/export), is a module. Throws the script parse's SyntaxError when neither parses, and an Error
 * for a `.js` file that also parses as a module while holding an HTML-like comment `<!--`: a classic script reads
 * it as a comment, a module as operators (`a <!--b` is `a < !--b`), and nothing says which of the two the page
 * loads, while the regenerated text keeps only the script's reading. (A `-->` comment opens a line, where a module
 * could only read a `--` before `>`, which never parses.)
 * @param {string} source
 * @param {string} path
 * @returns {{ program: import('acorn').Program, sourceType: 'script' | 'module' }}
 */
export function parseForPath(source, path) {
  if (path.endsWith('.mjs')) return { program: parseJavaScript(source, 'module'), sourceType: 'module' };
  let htmlComment = false;
  let program;
  try {
    program = parse(source, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowHashBang: true,
      onComment: (_block, _text, start) => {
        htmlComment ||= source.startsWith('<!--', start);
      },
    });
  } catch (scriptError) {
    try {
      return { program: parseJavaScript(source, 'module'), sourceType: 'module' };
    } catch {
      throw scriptError;
    }
  }
  // A legacy script opening with `<!--` is no module (`<` cannot start one): only both readings are ambiguous.
  if (htmlComment && parsesAsModule(source)) {
    throw new Error(
      `${path} has an HTML-like comment <!-- that a module would read as operators, and it parses as a module too: left as JavaScript`,
    );
  }
  return { program, sourceType: 'script' };
}

/** @param {string} source */
function parsesAsModule(source) {
  try {
    parseJavaScript(source, 'module');
    return true;
  } catch {
    return false;
  }
}

/**
 * Encodes JavaScript source as BinaryAST.
 * @param {string} source
 * @param {import('./encode-javascript').EncodeOptions} [options]
 * @returns {Uint8Array}
 */
export function encodeJavaScript(source, options = {}) {
  const { layout = 'context', lazyLevel = 0, sourceType = 'script', bridge = 'serde' } = options;
  const format = layoutFormats[layout];
  if (format === undefined) throw new Error(`unknown layout ${layout}: use multipart, optimised or context`);
  if (!Number.isInteger(lazyLevel) || lazyLevel < 0 || lazyLevel > 3) {
    throw new Error(`lazyLevel must be an integer from 0 to 3, got ${lazyLevel}`);
  }
  return encodeProgram(parseJavaScript(source, sourceType), { layout, lazyLevel, bridge });
}

/**
 * Encodes a program acorn already parsed (with `parseJavaScript`), for callers that keep the tree, e.g. to check
 * the encoding regenerates it.
 * @param {import('acorn').Program} ast
 * @param {Omit<import('./encode-javascript').EncodeOptions, 'sourceType'>} [options]
 * @returns {Uint8Array}
 */
export function encodeProgram(ast, options = {}) {
  const { layout = 'context', lazyLevel = 0, bridge = 'serde' } = options;
  const format = layoutFormats[layout];
  if (format === undefined) throw new Error(`unknown layout ${layout}: use multipart, optimised or context`);
  if (!Number.isInteger(lazyLevel) || lazyLevel < 0 || lazyLevel > 3) {
    throw new Error(`lazyLevel must be an integer from 0 to 3, got ${lazyLevel}`);
  }
  if (bridge === 'json') return encodeAstJson(stringify(ast), format, lazyLevel);
  return encodeAst(ast, format, lazyLevel);
}

/**
 * JSON.stringify throws on BigInt values (the encoder reads BigInts from `bigint` anyway); a replacer slows every
 * stringify, so it is only used when needed.
 * @param {unknown} ast
 */
function stringify(ast) {
  try {
    return JSON.stringify(ast);
  } catch {
    return JSON.stringify(ast, (_key, value) => (typeof value === 'bigint' ? null : value));
  }
}
