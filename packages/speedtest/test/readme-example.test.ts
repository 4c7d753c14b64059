import { describe, expect, it } from 'vitest';
import { readmeExample, typeCheckAsApp } from './readme-example.mjs';

// The README's example, as an app that depends on the package would compile it: the engine ships as TypeScript
// source, so the app's compiler options apply to the engine's files too.

/** A strict app of the kind people start from: DOM types without DOM.Iterable, index signatures read by name. */
const strictApp = {
  target: 'ES2022',
  lib: ['ES2022', 'DOM'],
  module: 'ESNext',
  moduleResolution: 'Bundler',
  strict: true,
  noUncheckedIndexedAccess: true,
  noPropertyAccessFromIndexSignature: true,
  noImplicitReturns: true,
  noImplicitOverride: true,
  verbatimModuleSyntax: true,
  isolatedModules: true,
  skipLibCheck: true,
  types: [],
  noEmit: true,
};

describe('the README example in a third-party app', () => {
  it('imports @speedkit/speedtest by name and type-checks under a strict app tsconfig', () => {
    const code = readmeExample();
    expect(code).toContain("from '@speedkit/speedtest'");
    // A module of its own (the example awaits at top level); the app reads the CSV it built.
    expect(typeCheckAsApp(`${code}\nvoid csv;\nexport {};\n`, strictApp)).toEqual([]);
  }, 60_000);
});
