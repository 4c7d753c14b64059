import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../src/cli.mjs';
import { libraries } from '../src/corpus.mjs';

function cli(...argv: string[]) {
  let out = '';
  let err = '';
  const code = run(argv, { out: (text) => (out += text), err: (text) => (err += text) });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'binast-cli-'));
const backbone = libraries.find((library) => library.name === 'backbone')?.path ?? '';

describe('npx binast', () => {
  it('encodes a library, reports its stats and decodes it back to runnable source', () => {
    const encoded = join(dir, 'backbone.binjs');
    expect(cli('encode', backbone, '-o', encoded, '--layout', 'multipart', '--lazy', '1').code).toBe(0);
    expect(readFileSync(encoded).subarray(0, 5).toString()).toBe('BINJS');
    const stats = JSON.parse(cli('stats', encoded).out);
    expect(stats).toMatchObject({ format: 1, layout: 'multipart' });
    expect(stats.lazyFunctions).toBeGreaterThan(0);
    const decoded = cli('decode', encoded);
    expect(decoded.code).toBe(0);
    const exports: Record<string, unknown> = {};
    // The UMD wrapper takes the CommonJS path: a real evaluation of the regenerated library.
    new Function('exports', 'require', 'module', decoded.out)(exports, createRequire(import.meta.url), { exports });
    expect(typeof exports.Model).toBe('function');
  });

  it('compares both layouts before and after compression for a JavaScript file', () => {
    const { code, out } = cli('stats', backbone);
    expect(code).toBe(0);
    const table = JSON.parse(out);
    expect(Object.keys(table)).toEqual(['source', 'multipart', 'optimised', 'context']);
    expect(table.optimised.brotli).toBeGreaterThan(0);
  });

  it('fails with exit code 1 and a message on a file that is not BinaryAST', () => {
    const bogus = join(dir, 'bogus.binjs');
    writeFileSync(bogus, 'var a = 1;');
    const { code, err } = cli('decode', bogus);
    expect(code).toBe(1);
    expect(err).toContain('missing BINJS magic');
  });

  it('fails with exit code 1 on JavaScript the parser rejects', () => {
    const broken = join(dir, 'broken.js');
    writeFileSync(broken, 'function (');
    expect(cli('encode', broken, '-o', join(dir, 'x.binjs')).code).toBe(1);
  });

  it('prints usage with exit code 2 for a missing argument or bad option', () => {
    expect(cli('encode').code).toBe(2);
    expect(cli('encode', backbone, '--layout', 'zip').code).toBe(2);
    expect(cli('frobnicate', backbone).err).toContain('Usage');
  });
});
