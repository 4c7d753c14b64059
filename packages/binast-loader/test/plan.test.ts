import { describe, expect, it } from 'vitest';
import { planScript, type ScriptAttributes } from '../src/plan';

const script = (overrides: Partial<ScriptAttributes>): ScriptAttributes => ({
  type: 'binast',
  src: 'https://example.com/app.js',
  async: false,
  defer: false,
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
