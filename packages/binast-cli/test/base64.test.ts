import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { brotli, contextBytes as bytes } from './context-size';

const base64 = (data: Uint8Array) => Buffer.from(data).toString('base64');

/** Bytes standing for a table: 16-bit values, little-endian, rising by small steps (code points). */
const table = (entries: number) => new Uint8Array(Uint16Array.from({ length: entries }, (_, i) => 0x41 + i * 3).buffer);

describe('the context layout codes base64 and hex text as the bytes they stand for', () => {
  it('a Wasm module in a data URL: its bytes through the models', () => {
    // The decoder's own Wasm build, as Emscripten's SINGLE_FILE output inlines a module; a length that needs padding.
    const wasm = readFileSync(fileURLToPath(import.meta.resolve('@speedkit/binast/wasm/binast_bg.wasm')));
    const module = wasm.subarray(0, 60_001);
    const source = `var w="data:application/wasm;base64,${base64(module)}";`;
    expect(source.endsWith('=";')).toBe(true);
    const asBytes = bytes(source);
    // The same characters but one that is not base64 at the end take the text path.
    const asText = bytes(source.replace('";', '!";'));
    // When this was written: 19,741 bytes as bytes, 30,043 as text, 26,297 for brotli 11 of the source.
    expect(asBytes).toBeLessThan(0.8 * asText);
    expect(asBytes).toBeLessThan(brotli(source));
  });

  it('a PNG in a base64 string: stored, 8 bits a byte', () => {
    const png = readFileSync(new URL('../../../fixtures/images/coffee.png', import.meta.url)).subarray(0, 30_000);
    const source = `var i="${base64(png)}";`;
    const asBytes = bytes(source);
    // 30,058 bytes when this was written (as text 31,390; brotli 11 of the source 30,157).
    expect(asBytes).toBeLessThan(png.length + 100);
    expect(asBytes).toBeLessThan(bytes(source.replace('";', '!";')));
  });

  it("hex colour ramps (d3's viridis, magma, inferno, plasma: 256 colours each) as bytes", () => {
    const d3Chromatic = readFileSync(createRequire(import.meta.url).resolve('d3-scale-chromatic'), 'utf8');
    const ramps = [...d3Chromatic.matchAll(/"([0-9a-f]{128,})"/g)].map((match) => match[1] ?? '');
    expect(ramps.length).toBeGreaterThanOrEqual(4);
    const asBytes = bytes(`var r=[${ramps.map((ramp) => `"${ramp}"`).join(',')}];`);
    // A character that is not a hex digit keeps each on the text path.
    const asText = bytes(`var r=[${ramps.map((ramp) => `"${ramp}!"`).join(',')}];`);
    // 1,390 against 2,939 bytes when this was written.
    expect(asBytes).toBeLessThan(0.6 * asText);
  });

  it('hex digits under 128, short base64 and near-base64 keep the text path and round-trip', () => {
    for (const text of [
      'a6cee31f78b4b2df8a33a02cfb9a99e31a1cfdbf6fff7f00cab2d66a3d9affff99b15928', // hex under 128 digits
      'addEventListener', // base64 alphabet, but a word
      `${base64(table(40))}==`, // `=` beyond the padding
      `data:image/png;base64,${base64(table(8))}`, // a tail shorter than 64 characters
      `data:image/png;base64,${base64(table(48)).slice(1)}`, // a tail whose length is not a multiple of 4
    ]) {
      expect(bytes(`var s=${JSON.stringify(text)};`)).toBeGreaterThan(0);
    }
  });
});
