import { readdirSync, readFileSync } from 'node:fs';
import { firstDifference } from '@speedkit/binast/ast-equal';
import * as decodeOnly from '@speedkit/binast/decode';
import { describe, expect, it } from 'vitest';
import { encodeJavaScript, parseJavaScript } from '../src/codec.mjs';
import { libraries, test262PassDir } from '../src/corpus.mjs';

// The browser's decoder is a separate build (no encoder, numbers printed by JavaScript's String(), the context layout
// only): it must regenerate the same programs as the full build, over test262 pass/ and every library.
decodeOnly.initSync({
  module: readFileSync(new URL(import.meta.resolve('@speedkit/binast/decode/binast_bg.wasm'))),
});

/** The few WebAssembly calls used here, typed by hand: this project's Node types do not declare the namespace. */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      compile(bytes: Uint8Array): Promise<object>;
      Module: {
        imports(module: object): { module: string; name: string }[];
        exports(module: object): { name: string; kind: string }[];
      };
    };
  }
).WebAssembly;

function sameProgram(source: string, sourceType: 'script' | 'module'): string | null {
  const bytes = encodeJavaScript(source, { layout: 'context', sourceType });
  const regenerated = decodeOnly.decodeToJavaScript(bytes);
  return firstDifference(parseJavaScript(source, sourceType), parseJavaScript(regenerated, sourceType));
}

describe('the decode-only build', () => {
  it('reads the context layout only, and says so for the others', () => {
    for (const layout of ['multipart', 'optimised'] as const) {
      const bytes = encodeJavaScript('var a = 1;', { layout });
      expect(() => decodeOnly.decodeToJavaScript(bytes)).toThrow(/context layout \(format 7\) only/);
    }
    expect(decodeOnly.decodeToJavaScript(encodeJavaScript('var a = 1;', { layout: 'context' }))).toBe('var a=1;');
  });

  it('has no encoder and no diagnostics: its module imports two host functions and exports one', async () => {
    expect(Object.keys(decodeOnly)).not.toContain('encodeAst');
    expect(Object.keys(decodeOnly)).not.toContain('binastStats');
    expect(Object.keys(decodeOnly)).toEqual(
      expect.arrayContaining(['decodeToJavaScript', 'decodeStream', 'initSync', 'default']),
    );
    const module = await wasm.compile(
      readFileSync(new URL(import.meta.resolve('@speedkit/binast/decode/binast_bg.wasm'))),
    );
    expect(wasm.Module.imports(module).map((entry) => `${entry.module}.${entry.name}`)).toEqual([
      'binast.read',
      'binast.number_text',
    ]);
    expect(wasm.Module.exports(module).filter((entry) => entry.kind === 'function')).toEqual([
      { name: 'binast_decode', kind: 'function' },
    ]);
  });

  it('decodes every file in a fresh instance: a failed decode leaves nothing behind for the next', async () => {
    const largest = libraries.reduce((a, b) => (readFileSync(a.path).length > readFileSync(b.path).length ? a : b));
    const bytes = encodeJavaScript(readFileSync(largest.path, 'utf8'));
    const small = encodeJavaScript('var a = [1, "two", { three: 3 }];');
    const expected = decodeOnly.decodeToJavaScript(bytes);
    for (let i = 0; i < 3; i++) {
      expect(() => decodeOnly.decodeToJavaScript(bytes.subarray(0, bytes.length >> 1))).toThrow();
      expect(decodeOnly.decodeToJavaScript(bytes)).toBe(expected);
      expect(decodeOnly.decodeToJavaScript(small)).toBe('var a=[1,"two",{three:3}];');
    }
    // The asynchronous entry gives the same bytes, from a Uint8Array or from a stream cut into odd pieces.
    expect(new TextDecoder().decode(await decodeOnly.decodeStream(bytes))).toBe(expected);
    const pieces = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 997) controller.enqueue(bytes.subarray(at, at + 997));
        controller.close();
      },
    });
    expect(new TextDecoder().decode(await decodeOnly.decodeStream(pieces))).toBe(expected);
  }, 120_000);

  it('regenerates every test262 pass/ file acorn accepts to an equal tree', () => {
    const failures: string[] = [];
    let accepted = 0;
    for (const name of readdirSync(test262PassDir).filter((file) => file.endsWith('.js'))) {
      const source = readFileSync(`${test262PassDir}/${name}`, 'utf8');
      const sourceType = name.endsWith('.module.js') ? 'module' : 'script';
      try {
        parseJavaScript(source, sourceType);
      } catch {
        continue;
      }
      accepted += 1;
      const difference = sameProgram(source, sourceType);
      if (difference) failures.push(`${name}: ${difference}`);
    }
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(1900);
  }, 120_000);

  it.each(libraries.map((library) => [library.name, library.path]))(
    '%s regenerates to an equal tree',
    (_name, path) => {
      expect(sameProgram(readFileSync(path, 'utf8'), 'script')).toBeNull();
    },
    120_000,
  );

  it('prints numbers in a form that reads back exactly', () => {
    const source =
      'x=[0.1,1e21,1e-7,5e-324,1.7976931348623157e308,123456789012345680000,0.30000000000000004,1000,1.5e6];';
    expect(sameProgram(source, 'script')).toBeNull();
    const regenerated = decodeOnly.decodeToJavaScript(encodeJavaScript(source));
    expect(regenerated).not.toContain('e+');
  });
});
