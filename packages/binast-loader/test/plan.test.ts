import { describe, expect, it } from 'vitest';
import { planScript, type ScriptAttributes } from '../src/plan';

/** An element-like script: `async` stands for the attribute, which is what the plan reads. */
const script = ({
  async = false,
  ...overrides
}: Partial<Omit<ScriptAttributes, 'hasAttribute'>> & { async?: boolean }) => ({
  type: 'binast',
  src: 'https://example.com/app.js',
  defer: false,
  hasAttribute: (name: 'async') => name === 'async' && async,
  ...overrides,
});

describe('planScript', () => {
  it('runs a parser-inserted classic binast script as blocking', () => {
    expect(planScript(script({}), false)).toEqual({ module: false, mode: 'blocking' });
  });

  it('honours defer on classic scripts', () => {
    expect(planScript(script({ defer: true }), false)).toEqual({ module: false, mode: 'defer' });
  });

  it('lets async win over defer, as browsers do', () => {
    expect(planScript(script({ async: true, defer: true }), false)).toEqual({ module: false, mode: 'async' });
  });

  it('defers module scripts by default', () => {
    expect(planScript(script({ type: 'binast-module' }), false)).toEqual({ module: true, mode: 'defer' });
  });

  it('runs async module scripts as soon as they are ready', () => {
    expect(planScript(script({ type: 'binast-module', async: true }), false)).toEqual({ module: true, mode: 'async' });
  });

  it('reads the async attribute, not the element property, which Chromium sets on every opt-in script it parsed', () => {
    // What an async loader finds when it starts after the parser: `async` true, no attribute (e2e: loader order).
    const parsed = { ...script({ defer: true }), async: true };
    expect(planScript(parsed, false)).toEqual({ module: false, mode: 'defer' });
  });

  it('treats scripts found after parsing like dynamically inserted ones (async)', () => {
    expect(planScript(script({ defer: true }), true)).toEqual({ module: false, mode: 'async' });
  });

  it('matches the type case-insensitively and ignores surrounding whitespace', () => {
    expect(planScript(script({ type: ' BinAST ' }), false)?.mode).toBe('blocking');
  });

  it('ignores scripts of other types', () => {
    for (const type of ['', 'text/javascript', 'module', 'binast2', 'application/javascript-binast']) {
      expect(planScript(script({ type }), false)).toBeNull();
    }
  });

  it('ignores opt-in scripts without src (there is no inline BinaryAST)', () => {
    expect(planScript(script({ src: '' }), false)).toBeNull();
  });
});
