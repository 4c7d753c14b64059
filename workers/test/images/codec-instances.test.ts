// One request's codec failure must never reach another's: a failed start is retried, a failed call gets a fresh
// instance (edge/codecs.ts), the wasm-bindgen png and resize codecs included (edge/bindgen-codecs.ts).
import { describe, expect, it } from 'vitest';
import { decode, instantiations, resizePixels } from '../../src/images/edge/codecs';
import { ensureCodecs } from '../../src/images/edge/wasm-modules';
import { rgbaPng } from './png-fixture';

const gradient = (x: number, y: number) => [x * 4, y * 4, 128, 255];
/** A PNG whose image data is garbage: the png crate fails inside Wasm (`unwrap_throw`, a JS throw out of Rust). */
async function corruptPng(): Promise<Uint8Array> {
  const png = await rgbaPng(64, 64, gradient);
  const bytes = png.slice();
  bytes.fill(0x55, 45, bytes.length - 12); // IHDR intact, IDAT's zlib stream and CRC not
  return bytes;
}

describe('codec instances', () => {
  it('forgets an instantiation that failed, so the next image gets a working codec', async () => {
    await ensureCodecs();
    const good = await rgbaPng(16, 16, gradient);
    await decode(good, 'png', 256);
    const real = WebAssembly.instantiate;
    // Memory pressure at the moment the failed call's replacement is started.
    WebAssembly.instantiate = (() =>
      Promise.reject(new RangeError('WebAssembly.instantiate(): Out of memory'))) as typeof real;
    try {
      await expect(decode(await corruptPng(), 'png', 4096)).rejects.toBeDefined();
    } finally {
      WebAssembly.instantiate = real;
    }
    expect(await decode(good, 'png', 256)).toMatchObject({ width: 16, height: 16 });
  });

  it('gives the next PNG a fresh png instance after a corrupt one', async () => {
    await ensureCodecs();
    const good = await rgbaPng(16, 16, gradient);
    await decode(good, 'png', 256);
    const before = instantiations.get('png') ?? 0;
    await expect(decode(await corruptPng(), 'png', 4096)).rejects.toThrow('unwrap_throw');
    await decode(good, 'png', 256);
    expect(instantiations.get('png')).toBe(before + 1);
  });

  it('still decodes PNGs after a thousand corrupt ones (each throw out of Rust leaves its stack frame behind)', async () => {
    // With one instance for the isolate's life (the glue's own), a valid PNG failed with "memory access out of
    // bounds" after 743 of these: the shadow stack had run out of its region.
    await ensureCodecs();
    const corrupt = await corruptPng();
    for (let n = 0; n < 1000; n += 1) await decode(corrupt, 'png', 4096).catch(() => {});
    expect(await decode(await rgbaPng(16, 16, gradient), 'png', 256)).toMatchObject({ width: 16, height: 16 });
  });

  it('resizes exactly as before after the resize instance was replaced for a large image', async () => {
    await ensureCodecs();
    const small = await decode(await rgbaPng(32, 32, gradient), 'png', 1024);
    const first = await resizePixels(small, 8, 8);
    const large = { data: new Uint8ClampedArray(1000 * 600 * 4).fill(200), width: 1000, height: 600 };
    const before = instantiations.get('resize') ?? 0;
    await resizePixels(large, 500, 300);
    expect(instantiations.get('resize')).toBe(before + 1);
    expect((await resizePixels(small, 8, 8)).data).toEqual(first.data);
  });
});
