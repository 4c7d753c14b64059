import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import { firstDifference } from '@speedkit/binast/ast-equal';
import * as decodeOnly from '@speedkit/binast/decode';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeToJavaScript, encodeJavaScript, parseForPath, parseJavaScript } from '../src/codec.mjs';

// Differential tests of regeneration on syntax the corpora rarely or never hold: the JavaScript a decoder writes must
// parse to the source's program (acorn, same source type) and, where the script can run on its own, do the same
// thing under V8 (node:vm), which also checks what acorn and a browser might read differently (directives, `this`).

decodeOnly.initSync({
  module: readFileSync(new URL(import.meta.resolve('@speedkit/binast/decode/binast_bg.wasm'))),
});

type SourceType = 'script' | 'module';

/** Every regeneration a visitor or the Worker can see: the full build's three layouts and the browser's build. */
function regenerations(source: string, sourceType: SourceType): string[] {
  const context = encodeJavaScript(source, { layout: 'context', sourceType });
  return [
    decodeToJavaScript(context),
    decodeOnly.decodeToJavaScript(context),
    decodeToJavaScript(encodeJavaScript(source, { layout: 'multipart', lazyLevel: 3, sourceType })),
    decodeToJavaScript(encodeJavaScript(source, { layout: 'optimised', lazyLevel: 1, sourceType })),
  ];
}

/** What running a script gave, comparable across two runs: the value's type and text, or the error's kind. */
function outcome(source: string, globals: () => object): string {
  try {
    const value: unknown = runInNewContext(source, globals(), { timeout: 1000 });
    if (typeof value === 'function') return 'function'; // its text is the regenerated one (formatting may change)
    if (typeof value === 'object' && value !== null) return Object.prototype.toString.call(value);
    return `${typeof value} ${Object.is(value, -0) ? '-0' : String(value)}`;
  } catch (error) {
    return `throws ${(error as Error | undefined)?.constructor?.name}`;
  }
}

/**
 * The first way the regenerated text differs from `source`, or null: it does not parse, parses to another program,
 * or (`run`, scripts only) runs to another outcome.
 */
function difference(source: string, sourceType: SourceType, run: boolean, globals: () => object = () => ({})) {
  const original = parseJavaScript(source, sourceType);
  for (const regenerated of new Set(regenerations(source, sourceType))) {
    let reparsed: ReturnType<typeof parseJavaScript>;
    try {
      reparsed = parseJavaScript(regenerated, sourceType);
    } catch (error) {
      return `${JSON.stringify(regenerated)} does not parse: ${String(error)}`;
    }
    const where = firstDifference(original, reparsed);
    if (where) return `${JSON.stringify(regenerated)} is another program, first at ${where}`;
    if (run && sourceType === 'script') {
      const [before, after] = [outcome(source, globals), outcome(regenerated, globals)];
      if (before !== after) return `${JSON.stringify(regenerated)} gives ${after}, the source ${before}`;
    }
  }
  return null;
}

const keeps = (source: string) => expect(difference(source, 'script', true)).toBeNull();
const keepsModule = (source: string) => expect(difference(source, 'module', false)).toBeNull();

describe('regeneration keeps precedence that only parentheses carried', () => {
  it.each([
    ['a sequence as the callee loses `this`', 'var o = { f() { return this } }; (0, o.f)() === undefined'],
    ['a parenthesised optional chain as the callee', 'var o = { f() { return typeof this } }; (o?.f)()'],
    ['an optional chain that stops at its own end', 'var a = null; (a?.b).c'],
    ['a call inside the callee of new', 'function a() { return function () { this.x = 1 } } new (a())().x'],
    ['new of a constructor new returns', 'new (function () { return Date })() instanceof Date'],
    ['a unary operand of **', '(-2) ** 2'],
    ['right-associative **', '2 ** 3 ** 2 === 2 ** (3 ** 2) && (2 ** 3) ** 2 === 64'],
    ['?? next to ||', 'var a = null, b = 0, c = 1; [a ?? (b || c), (a ?? b) || c].join()'],
    ['string concatenation grouped to the right', '"a" + (1 + 2)'],
    ['subtraction grouped to the right', '10 - (4 - 3)'],
    ['a conditional as a test', 'var a = 0; (a ? 1 : 0) ? "y" : "n"'],
    ['an assignment as a conditional test', 'var a; (a = 0) ? "y" : "n"'],
    ['a sequence as an argument', 'var f = (...x) => x.length; f((1, 2), 3)'],
    ['member access on an integer literal', '1..toString() + 1.5.toFixed(1) + 1e21.toString()'],
    ['a prefix operator on a prefix operator', 'var x = 3; [+ +x, - -x, - --x, + ++x, -(-x), !--x].join()'],
    ['an arrow body that is an object literal', 'var f = () => ({ a: 1 }); f().a'],
    ['an arrow body that starts with an object literal', 'var f = () => ({}).constructor === Object; f()'],
    ['a parenthesised tag that is an optional chain', 'var a = { b: (s) => s[0] }; (a?.b)`x`'],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps `in` out of for heads where it would end the initialiser', () => {
  it.each([
    ['in a for initialiser', 'for (var i = ("a" in { a: 1 }) ? 1 : 0; i < 1; i++); i'],
    [
      'in an arrow body inside a for initialiser',
      'var n = 0; for (var f = () => { return "a" in {} }; n < 1; n++); f()',
    ],
    [
      'in the initialiser of a sloppy for-in declaration (Annex B)',
      'var r = []; for (var a = ("x" in { x: 1 }) in { p: 1 }) r.push(a); r.join()',
    ],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps what starts a statement and what ASI decided', () => {
  it.each([
    ['a function expression called at statement start', '(function () { return 1 })()'],
    ['a class expression at statement start', '(class {}).name'],
    ['an object literal at statement start', '({}).constructor === Object'],
    ['`let [` at statement start in a sloppy script', 'var let = [1]; (let)[0] = 2; (let)[0]'],
    ['an async function expression at statement start', '(async function () {}).constructor.name'],
    ['`async` on its own line before a function declaration', 'var async = 1; async\nfunction f() {} typeof f'],
    ['++ after a line break', 'var a = 1, b = 2; a\n++\nb; [a, b].join()'],
    ['return before a line break', 'function f() { return\n(1) } f()'],
    ['a call across a line break', 'var a = function (x) { return x }\n(function () { return 2 })(); a'],
    ['division across a line break', 'var x = 4, y = 2, g = 1; x = y\n/2/g; x'],
    ['regular expressions after ) and }', 'var r = []; if (1) /a/.test("a") && r.push(1); {}/b/.source'],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps contextual keywords used as names', () => {
  it.each([
    ['async as a function name', 'var async = (x) => x + 1; async(1)'],
    ['async as an arrow parameter', 'var f = async => async * 2; f(2)'],
    ['let, yield and await as sloppy names', 'var let = 1, yield = 2, await = 3; let + yield + await'],
    ['await as a parameter name', 'var f = (await) => await; f(4)'],
    [
      'get, set, static and async as property names',
      'var o = { get: 1, set: 2, static: 3, async: 4 }; o.get + o.async',
    ],
    ['get, set, static and async as method names', '({ get() { return 1 }, set() {}, async() {}, static() {} }).get()'],
    [
      'get, set, static and async as class member names',
      'class A { static() { return 1 } static static() { return 2 } get get() { return 3 } async() {} } A.static() + new A().get',
    ],
    [
      'get, set, static, async and accessor as class field names',
      'class A { static = 1; static static = 2; async = 3; get = 4; set = 5; accessor = 6 } JSON.stringify([A.static, new A()])',
    ],
    ['a field named async before a method', 'class A { async\n x() {} } Object.keys(new A()).join()'],
    ['a getter whose name is on the next line', 'class A { get\n x() { return 1 } } new A().x'],
    ['let as a for-in target', 'var let; for (let in { p: 1 }); let'],
    ['async as a for-of target', 'var async; for ((async) of [1]); async'],
    ['escaped names', 'var \\u{61}b = 1, l\\u0065t = 2; ab + let'],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps directive prologues', () => {
  it.each([
    ['a use strict directive stays one', "'use strict'; (function () { return this })()"],
    ['a parenthesised use strict is no directive', "('use strict'); (function () { return typeof this })()"],
    [
      'an escaped use strict is a directive that does not make code strict',
      "'use\\x20strict'; (function () { return typeof this })()",
    ],
    ['use strict after another directive', "function f() { 'a'; 'use strict'; return this } f()"],
    [
      'use strict after a parenthesised string is no directive',
      "function f() { ('a'); 'use strict'; return typeof this } f()",
    ],
    [
      'a string that continues onto the next line is no directive',
      "function f() { 'use strict'\n+ 1; return typeof this } f()",
    ],
    ['a directive with a line continuation', "function f() { 'use \\\nstrict'; return typeof this } f()"],
    ['a directive holding a double quote', "function f() { 'a\"b'; 'use strict'; return this } f()"],
    ['a directive in an arrow', "(() => { 'use strict'; return typeof function () { return this }() })()"],
    ['a string statement in a block is no directive', "{ 'use strict'; } (function () { return typeof this })()"],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps literal values', () => {
  it.each([
    [
      'lone surrogates',
      '["\\ud800", "\\udc00\\ud800", "\\ud83d\\ude00"].map((s) => s.length + ":" + s.charCodeAt(0)).join()',
    ],
    ['line and paragraph separators', '"\u2028\u2029".length + "\\u2028".charCodeAt(0)'],
    ['NUL before a digit', '["\\0" + 1, "\\08", "\\x00"].map((s) => s.length).join()'],
    ['legacy octal and \\8 escapes', '"\\101\\8\\9"'],
    ['line continuations', '"a\\\nb\\\r\nc\\\u2028d"'],
    ['a hashbang line', '#!/usr/bin/env node\n"after a hashbang"'],
    ['an end tag and HTML comment openers in strings', '"</script><!--" + "-->"'],
    ['HTML-like comments in a script', 'var x = 1 <!-- a comment\n--> another\nx'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a JavaScript source, not a template
    ['raw template text', 'String.raw`\\u{61}\\n${1}\\x`'],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the text of a JavaScript source, not a template
    ['invalid escapes in a tagged template', '((s) => s.raw.join("|") + (s[1] === undefined))`a${1}\\unicode${2}\\xg`'],
    ['template text after a carriage return', '`a\r\nb`.length + String.raw`a\rb`.length'],
    [
      'regular expressions with every flag',
      '[/[/]/.source, /a/dgimsy.flags, /[\\p{L}--[a-z]]/v.flags, /\\//.source].join(" ")',
    ],
    [
      'numbers in every notation',
      '[1_000_000, 0x1F, 0o17, 0b101, 010, 08, 09.5, .5, 5., 1e21, 5e-324, 1E400, 0.1_1].join()',
    ],
    ['negative zero and huge integers', '[1 / -0, 123456789012345678901234567890, 2 ** 53 + 2].join()'],
    ['BigInts', '[0xFFFFFFFFFFFFFFFFFFFFFFn, 1_0n, 0b11n, 0o7n, 2n ** 64n].join()'],
    ['numeric property keys', 'JSON.stringify({ 0.1: 1, 1e3: 2, 0x10: 3, 1e21: 4, .5: 5, 1n: 6 })'],
    [
      '__proto__ set only by the non-shorthand, non-computed key',
      'var __proto__ = []; [{ __proto__: null }, { __proto__ }, { ["__proto__"]: [] }].map(Object.getPrototypeOf).map((p) => p === null).join()',
    ],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps classes, functions and scopes', () => {
  it.each([
    ['private fields and #x in', 'class A { #x = 1; static has(o) { return #x in o } } A.has(new A()) && !A.has({})'],
    [
      'private methods and accessors',
      'class A { #m() { return 1 } get #g() { return 2 } t() { return this.#m() + this.#g } } new A().t()',
    ],
    ['static blocks', 'class A { static #p = 2; static { this.y = A.#p } } A.y'],
    ['labelled continue', 'var n = 0; l: for (var i = 0; i < 3; i++) { for (;;) { n++; continue l } } n'],
    ['new.target', 'function F() { return new.target === F } [new F() instanceof F, F()].join()'],
    ['direct eval reaching a local', 'function f() { var x = 1; eval("x = 2"); return x } f()'],
    ['indirect eval reaching the global', 'var x = 1; (function () { var x = 2; return (0, eval)("x") })()'],
    ['with', 'var o = { x: 1 }; with (o) { x = 2 } o.x'],
    ['arguments', 'function f() { return arguments.length } f(1, 2)'],
    [
      'name inference',
      'var f = function () {}, o = { g: () => {} }, { h = function () {} } = {}; [f.name, o.g.name, h.name].join()',
    ],
    [
      'parameter names in fn.toString (AngularJS injection reads them)',
      "function ctl($scope, $http, _a$) {} String(ctl).match(/^[^(]*\\(\\s*([^)]*)\\)/m)[1].split(',').map((s) => s.trim()).join()",
    ],
    ['an arrow parameter in fn.toString', "var f = $rootScope => 1; String(f).replace(/[() ]/g, '').split('=>')[0]"],
  ])('%s', (_what, source) => keeps(source));
});

describe('regeneration keeps module syntax', () => {
  it.each([
    [
      'import attributes',
      'import x from "a" with { type: "json" }; export * from "b" with { type: "json" }; export { x }',
    ],
    ['dynamic import with options', 'await import("x", { with: { type: "json" } })'],
    ['import.meta', 'new import.meta.x(); import.meta`t`; import.meta.resolve("y")'],
    ['top-level await and for await', 'await x; for await (const y of z);'],
    [
      'string export and import names',
      'export { a as "b c" } from "x"; export * as "d" from "y"; import { "e f" as g } from "z"',
    ],
    ['export default of a parenthesised function', 'export default (function () {})'],
    ['export default of a parenthesised async function', 'export default (async function () {})'],
    ['export default of a class expression in parentheses', 'export default (class {}).name'],
    ['export default of an object literal', 'export default { a: 1 }'],
    ['export default function then a parenthesised expression', 'export default function () {}\n(1)'],
  ])('%s', (_what, source) => keepsModule(source));
});

describe('a .js file is encoded only when one reading of it is certain', () => {
  it('refuses one whose HTML-like comment a module would read as operators', () => {
    // As a classic script `a <!--b` is `a`; as a module it is `a < !--b`: the regenerated `a;` is only the first.
    expect(() => parseForPath('var a = 1, b = 2; a <!--b\n', '/app.js')).toThrow(/HTML-like comment/);
  });

  it('encodes legacy scripts wrapped in <!-- and -->, which no module can be, as scripts', () => {
    for (const source of ['<!--\nvar a = 1;\n//-->\n', 'var a = 1; <!-- a comment\nvar b = 2\n--> another\n']) {
      expect(parseForPath(source, '/legacy.js').sourceType).toBe('script');
    }
  });
});

// Random expressions from the operators and forms above, each piece parenthesised or not, in the statement positions
// that have their own rules. acorn decides what is valid; what is, must regenerate to the same program and outcome.
const atoms = [
  'a',
  'b',
  'c',
  'o',
  'f',
  '0',
  '1.5',
  '.5',
  '1e21',
  '0x10',
  '10n',
  '"s"',
  '/r/g',
  '`t`',
  'null',
  'this',
  'let',
  'async',
  'yield',
  'await',
  'o.p',
  '[]',
  '{}',
  '-0',
];
const binaryOperators = [
  '+',
  '-',
  '*',
  '/',
  '%',
  '**',
  '<<',
  '>>>',
  '<',
  '<=',
  '==',
  '!==',
  '&',
  '^',
  '|',
  '&&',
  '||',
  '??',
  'in',
  'instanceof',
  ',',
];
const prefixes = ['+', '-', '!', '~', 'typeof ', 'void ', 'delete ', '++', '--', 'new ', 'await ', 'yield ', '...'];
const assignments = ['=', '+=', '**=', '??=', '||=', '&&='];
const statementForms = [
  (e: string) => `${e};`,
  (e: string) => `for (${e};;) break;`,
  (e: string) => `for (var v = ${e} in o);`,
  (e: string) => `for (${e} in o);`,
  (e: string) => `for (${e} of []);`,
  (e: string) => `x = () => ${e};`,
  (e: string) => `if (a) ${e}; else ${e};`,
  (e: string) => `l: ${e}\n${e}`,
];

const expressionsByDepth: fc.Arbitrary<string>[] = [fc.constantFrom(...atoms)];
for (let depth = 1; depth <= 3; depth++) {
  const below = expressionsByDepth[depth - 1] as fc.Arbitrary<string>;
  const operand = fc.tuple(below, fc.boolean()).map(([e, parenthesised]) => (parenthesised ? `(${e})` : e));
  expressionsByDepth.push(
    fc.oneof(
      below,
      fc.tuple(operand, fc.constantFrom(...binaryOperators), operand).map(([l, op, r]) => `${l} ${op} ${r}`),
      fc.tuple(fc.constantFrom(...prefixes), operand).map(([op, e]) => `${op}${e}`),
      fc
        .tuple(operand, fc.constantFrom('++', '--', '()', '?.()', '`x`', '.p', '?.p', '[a]', '?.[0]'))
        .map(([e, s]) => `${e}${s}`),
      fc.tuple(operand, fc.constantFrom(...assignments), operand).map(([l, op, r]) => `${l} ${op} ${r}`),
      fc.tuple(operand, operand, operand).map(([t, y, n]) => `${t} ? ${y} : ${n}`),
      fc
        .tuple(fc.constantFrom('', 'async '), fc.constantFrom('a', '(a)', '(a = b)'), operand)
        .map(([as, p, e]) => `${as}${p} => ${e}`),
      fc.tuple(operand, operand).map(([k, v]) => `{ p: ${k}, [${v}]: 1, get g() { return 1 } }`),
      fc.tuple(operand, operand).map(([e, x]) => `${e}(${x})`),
      fc.tuple(operand).map(([e]) => `class extends ${e} { static { } }`),
    ),
  );
}
const program = fc
  .tuple(expressionsByDepth[3] as fc.Arbitrary<string>, fc.constantFrom(...statementForms))
  .map(([e, form]) => form(e));
/** Fresh for every run: the scripts assign to them. */
const globals = () => ({
  a: 1,
  b: '2',
  c: null,
  o: { p: 3 },
  f: function (this: unknown) {
    return typeof this;
  },
});

describe('regeneration of random expressions', () => {
  it('keeps the program and its outcome for every script acorn accepts', () => {
    let accepted = 0;
    fc.assert(
      fc.property(program, (source) => {
        try {
          parseJavaScript(source, 'script');
        } catch {
          return true;
        }
        accepted += 1;
        // An async function that throws rejects after the run, unhandled: those are compared as programs only.
        expect(difference(source, 'script', !/\basync\b/.test(source), globals)).toBeNull();
        return true;
      }),
      { numRuns: 1500, seed: 20261128 },
    );
    // Most random mixes are invalid; enough of them must parse for the test to mean anything.
    expect(accepted).toBeGreaterThan(300);
  }, 120_000);
});
